import { companyResource } from '@app/shared/resources/company';
import { dictDetailResource } from '@app/shared/resources/dict';
import { roleResource } from '@app/shared/resources/role';
import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Input } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../app/i18n';
import StaffPage from '../modules/accounts/StaffPage';
import { SearchBar, SearchItem } from './SearchBar';
import { installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

/** Findings UX/W9 and issue 9 item 10: every filter carries a visible label; the required 单位 comes first. */

beforeAll(async () => {
  await setupI18n();
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await changeLanguage('zh');
});

const labels = (root: ParentNode = document) => Array.from(root.querySelectorAll('.crud-search .crud-search-label')).map((l) => l.textContent);

function fakeServer() {
  return installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') return { body: {} };
    if (call.path === '/api/accountsCompany/all') return page([{ id: 7, companyName: '甲公司' }]);
    if (call.path === '/api/accountsStaff') return page([{ id: 1, staffName: '张三', companyName: '甲公司' }]);
    return undefined;
  });
}

describe('labelled SearchBar', () => {
  it('labels every declared filter with its field label, and the label names its control', () => {
    fakeServer();
    loginAs(['ADMIN']);
    renderWithApp(<SearchBar def={companyResource} filters={{}} onSearch={() => undefined} />);
    // U22: the name first, the internal id last
    expect(labels()).toEqual(['单位名称', '服务方式', '联系人', '电话', 'ID']);
    // a click on 单位名称 reaches its input (htmlFor -> id), which is what a screen reader announces too
    const label = screen.getByText('单位名称', { selector: 'label' });
    const control = document.getElementById(label.getAttribute('for') ?? '');
    expect(control?.tagName).toBe('INPUT');
    expect(screen.getByTestId('crud-filter-companyName').contains(control)).toBe(true);
  });

  it('labels the keyword search 关键字 and the field chooser too', () => {
    fakeServer();
    loginAs(['ADMIN']);
    renderWithApp(
      <>
        <SearchBar def={roleResource} filters={{}} onSearch={() => undefined} />
        <SearchBar def={staffExtraResource} filters={{}} onSearch={() => undefined} />
      </>,
    );
    const [role, chooser] = Array.from(document.querySelectorAll('.crud-search'));
    expect(labels(role)[0]).toBe('关键字');
    expect(labels(chooser)).toEqual(['关键字']);
    // U22: the field chooser of 员工加班扣款 starts on the employee's name, not on the internal ID
    expect(chooser.querySelector('.ant-select-selection-item, .ant-select-content')?.textContent).toBe('员工姓名');
  });

  it('puts `lead` before every other filter, marked required, and keeps its value out of 重置', () => {
    fakeServer();
    loginAs(['ADMIN']);
    const onSearch = vi.fn();
    renderWithApp(
      <SearchBar
        def={companyResource}
        filters={{}}
        onSearch={onSearch}
        fixed={{ companyId: 7 }}
        lead={
          <SearchItem label="单位" required htmlFor="lead-company">
            <Input id="lead-company" />
          </SearchItem>
        }
      />,
    );
    expect(labels()[0]).toBe('单位');
    expect(document.querySelector('.crud-search .crud-search-item .crud-search-label')?.classList.contains('crud-search-required')).toBe(true);
    fireEvent.change(screen.getByTestId('crud-filter-contact').querySelector('input') as HTMLInputElement, { target: { value: '王' } });
    fireEvent.click(screen.getByTestId('crud-search'));
    expect(onSearch).toHaveBeenLastCalledWith({ contact: '王', companyId: 7 });
    fireEvent.click(screen.getByTestId('crud-reset'));
    expect(onSearch).toHaveBeenLastCalledWith({ companyId: 7 });
  });

  it('takes the keyword box of a page: placeholder and test id, or one field searched under its own label', () => {
    fakeServer();
    loginAs(['ADMIN']);
    const onSearch = vi.fn();
    renderWithApp(
      <SearchBar
        def={dictDetailResource}
        filters={{}}
        onSearch={onSearch}
        exclude={['dictId']}
        keyword={{ field: 'label', placeholder: '输入字典标签查询', testId: 'dict-detail-search' }}
      />,
    );
    // 字典标签 once, as the keyword box, not again as a filter
    expect(labels()).toEqual(['字典标签']);
    const box = screen.getByTestId('dict-detail-search') as HTMLInputElement;
    expect(box.placeholder).toBe('输入字典标签查询');
    fireEvent.change(box, { target: { value: '乙' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(onSearch).toHaveBeenLastCalledWith({ label: '乙' });
  });

  it('shows the labels in the UI language', async () => {
    fakeServer();
    loginAs(['ADMIN']);
    await changeLanguage('en');
    renderWithApp(<SearchBar def={roleResource} filters={{}} onSearch={() => undefined} />);
    expect(labels()[0]).toBe('Keyword');
  });
});

describe('staff screen search area', () => {
  it('starts with the required 单位, then 姓名 and the other filters, each labelled', async () => {
    fakeServer();
    loginAs(['ACCOUNTSSTAFF_ALL']);
    renderWithApp(<StaffPage />);
    await screen.findByText('张三', {}, { timeout: 8000 });
    const all = labels();
    expect(all[0]).toBe('单位');
    expect(all).toContain('姓名');
    expect(all.length).toBeGreaterThan(2);
    const first = document.querySelector('.crud-search > .crud-search-item');
    expect(first?.getAttribute('data-testid')).toBe('staff-company-filter');
    expect(first?.querySelector('[data-testid="company-select"]')).not.toBeNull();
  });
});
