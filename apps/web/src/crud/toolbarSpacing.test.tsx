import { companyResource } from '@app/shared/resources/company';
import { cleanup, screen } from '@testing-library/react';
import { Space } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import zhCommon from '../locales/zh/common.json';
import { ExcelButtons } from './Excel';
import { SearchBar } from './SearchBar';
import { installFakeFetch, loginAs, renderWithApp, setupI18n } from './testUtils';

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Findings W8: buttons rendered as one item of a Space touched (0 px gap). */
describe('toolbar spacing and the zh settings texts (findings W8)', () => {
  it('puts 导入|导出|模板下载 and 搜索|重置 each in their own Space item', async () => {
    installFakeFetch((call) => (call.path === '/api/dictDetail/map' ? { body: {} } : undefined));
    loginAs(['ADMIN']);
    renderWithApp(
      <Space wrap>
        <SearchBar def={companyResource} filters={{}} onSearch={() => undefined} />
        <ExcelButtons def={companyResource} filters={{}} canImport canExport />
      </Space>,
    );
    const item = (id: string) => screen.getByTestId(id).closest('.ant-space-item');
    await screen.findByTestId('crud-import');
    for (const [a, b] of [
      ['crud-import', 'crud-export'],
      ['crud-export', 'crud-template'],
      ['crud-search', 'crud-reset'],
    ]) {
      expect(item(a), `${a} / ${b}`).not.toBeNull();
      expect(item(a), `${a} / ${b}`).not.toBe(item(b));
    }
  });

  it('speaks Chinese in the settings drawer', () => {
    expect(zhCommon.settings.fixedHeader).toBe('固定顶栏');
    expect(zhCommon.settings.tagsView).toBe('显示标签页');
  });
});
