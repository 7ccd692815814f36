import { defineResource } from '@app/shared/resource';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ImportDialog } from './Excel';
import { installFakeFetch, loginAs, renderWithApp, setupI18n } from './testUtils';

// The import report shows the rows refused because Excel lost the last digits of a long number (finding X1).

const def = defineResource({
  name: 'person',
  table: 'person',
  permission: 'PERSON',
  label: '人员',
  excel: { fileName: '人员', templateName: '人员模板' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true },
    { name: 'idCard', kind: 'idCard', label: '身份证号' },
  ],
});

beforeAll(async () => {
  await setupI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function fakeXhr(answer: unknown) {
  return class {
    status = 0;
    responseText = '';
    upload = { onprogress: null };
    onload: null | (() => void) = null;
    onerror = null;
    ontimeout = null;
    open() {}
    setRequestHeader() {}
    send() {
      setTimeout(() => {
        this.status = 200;
        this.responseText = JSON.stringify(answer);
        this.onload?.();
      }, 5);
    }
  };
}

async function importWith(answer: unknown): Promise<HTMLElement> {
  vi.stubGlobal('XMLHttpRequest', fakeXhr(answer));
  installFakeFetch(() => ({ body: {} }));
  loginAs(['PERSON_ALL']);
  renderWithApp(<ImportDialog def={def} open onClose={() => undefined} />);
  const dialog = (await screen.findByText('导入人员')).closest('.ant-modal') as HTMLElement;
  fireEvent.change(dialog.querySelector('input[type=file]') as HTMLInputElement, { target: { files: [new File(['x'], 'p.xlsx')] } });
  await within(dialog).findByText('p.xlsx');
  fireEvent.click(within(dialog).getByTestId('import-submit'));
  return within(dialog).findByTestId('import-result');
}

describe('import report: digit loss', () => {
  it('shows how many rows lost digits, next to the per-row messages', async () => {
    const message = '身份证号超过15位数字，Excel已丢失末尾数字（如 1.10105199208014E+17），请将“身份证号”列设置为文本格式后重新填写';
    const result = await importWith({ total: 3, inserted: 1, updated: 0, failed: 2, digitLoss: 2, errors: [{ row: 2, column: '身份证号', message }, { row: 3, column: '身份证号', message }] });
    expect(result.textContent).toContain('共 3 行：已保存 1 行（新增 1，更新 0），未保存 2 行');
    expect(within(result).getByTestId('import-digit-loss').textContent).toContain('其中 2 行含超过 15 位的数字');
    expect(within(result).getAllByText(message)).toHaveLength(2);
  });

  it('shows nothing extra when no row lost digits', async () => {
    const result = await importWith({ total: 1, inserted: 0, updated: 0, failed: 1, errors: [{ row: 2, column: '身份证号', message: '身份证号码不正确' }] });
    expect(within(result).queryByTestId('import-digit-loss')).toBeNull();
  });
});
