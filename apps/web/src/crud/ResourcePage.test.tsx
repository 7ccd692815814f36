import { defineResource, validateField } from '@app/shared/resource';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import ResourcePage from './ResourcePage';
import { columnPrefsKey } from './columnPrefs';
import { formatMoney, formatRatio } from './format';
import { type FakeCall, batchDeleteRows, installFakeFetch, loginAs, page, renderWithApp, setupI18n } from './testUtils';

const testDef = defineResource({
  name: 'widget',
  table: 'widget',
  permission: 'WIDGET',
  label: '部件',
  dialogWidth: 600,
  excel: { fileName: '部件', templateName: '部件模板' },
  searchMode: 'filters',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 10, filter: 'like' },
    { name: 'amount', kind: 'money', label: '金额', required: '请输入金额' },
    { name: 'rate', kind: 'ratio', label: '比例' },
    { name: 'kind', kind: 'dict', dict: 'widget_kind', label: '类型', filter: 'eq' },
    { name: 'active', kind: 'bool', label: '启用' },
    { name: 'sort', kind: 'int', label: '排序', min: 0, max: 999, required: '请输入序号', section: '其他' },
    { name: 'note', kind: 'text', label: '备注', list: false, section: '其他' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
  ],
});

const rowsOf = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    name: `部件${from + i}`,
    amount: 1234567.5,
    rate: 0.08,
    kind: 'A',
    active: true,
    sort: 1,
    note: '说明文字',
    createTime: '2025-01-02T03:04:05.000Z',
  }));

const ALL_CODES = ['WIDGET_ALL'];
let calls: FakeCall[];
let total = 3;
let failCreateWith: Record<string, string> | null = null;

function listCalls() {
  return calls.filter((c) => c.method === 'GET' && c.path === '/api/widget');
}

beforeAll(async () => {
  await setupI18n();
});

beforeEach(() => {
  localStorage.clear();
  total = 3;
  failCreateWith = null;
  calls = installFakeFetch((call) => {
    if (call.path === '/api/dictDetail/map') return { body: { widget_kind: [{ label: '甲类', value: 'A' }] } };
    if (call.path === '/api/widget' && call.method === 'GET') {
      const p = Number(call.query.page ?? 0);
      const size = Number(call.query.size ?? 10);
      const count = Math.max(0, Math.min(size, total - p * size));
      return page(rowsOf(count, p * size + 1), total);
    }
    if (call.path === '/api/widget' && call.method === 'POST') {
      if (failCreateWith) return { status: 400, body: { status: 400, message: Object.values(failCreateWith)[0], fieldErrors: failCreateWith } };
      return { status: 201, body: { id: 99, ...(call.body as object) } };
    }
    if (call.path === '/api/widget' && call.method === 'DELETE') {
      total -= (call.body as number[]).length;
      return { body: {} };
    }
    if (call.path.startsWith('/api/widget/') && call.method === 'DELETE') {
      total -= 1;
      return { body: {} };
    }
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ResourcePage', { timeout: 30_000 }, () => {
  it('renders the columns of the definition with values formatted by kind', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    expect(await screen.findByText('部件1')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
    for (const label of ['名称', '金额', '比例', '类型', '启用', '排序', '创建日期', '操作']) expect(headers).toContain(label);
    expect(headers).not.toContain('备注'); // list: false -> in the expandable detail
    expect(headers).not.toContain('ID');
    expect(screen.getAllByText('1,234,567.50').length).toBe(3);
    expect(formatMoney(1234567.5)).toBe('1,234,567.50');
    expect(screen.getAllByText('8%').length).toBe(3);
    expect(formatRatio(0.005)).toBe('0.5%');
    await waitFor(() => expect(screen.getAllByText('甲类').length).toBe(3));
    // Excel buttons appear for a definition with excel options.
    expect(screen.getByTestId('crud-import')).toBeTruthy();
    expect(screen.getByTestId('crud-export')).toBeTruthy();
    expect(screen.getByTestId('crud-template')).toBeTruthy();
  });

  it('sends 0-based page, size and sort; size change and search go back to page 0', async () => {
    total = 45;
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    expect(listCalls()[0].query).toMatchObject({ page: '0', size: '10', sort: 'id,desc' });

    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('部件11');
    expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', size: '10' });
    // shown page number is the 0-based page + 1
    expect(document.querySelector('.ant-pagination-item-active')?.textContent).toBe('2');

    // size 20 -> page 0
    const sizeSelect = document.querySelector('.ant-pagination-options .ant-select') as HTMLElement;
    fireEvent.mouseDown(within(sizeSelect).getByRole('combobox'));
    fireEvent.click(await screen.findByText('20 条/页'));
    await waitFor(() => expect(listCalls().at(-1)?.query).toMatchObject({ page: '0', size: '20' }));

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(listCalls().at(-1)?.query).toMatchObject({ page: '1', size: '20' }));

    // searching -> page 0 with the filter
    fireEvent.change(screen.getByTestId('crud-filter-name').querySelector('input')!, { target: { value: '部件' } });
    fireEvent.click(screen.getByTestId('crud-search'));
    await waitFor(() => expect(listCalls().at(-1)?.query).toMatchObject({ page: '0', size: '20', name: '部件' }));

    // sorting by a column sends field,dir
    fireEvent.click(screen.getAllByRole('columnheader').find((h) => h.textContent === '金额')!);
    await waitFor(() => expect(listCalls().at(-1)?.query.sort).toBe('amount,asc'));
  });

  it('the dialog shows exactly the messages of validateField', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('新增部件')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    const name = testDef.fields.find((f) => f.name === 'name')!;
    const amount = testDef.fields.find((f) => f.name === 'amount')!;
    const sort = testDef.fields.find((f) => f.name === 'sort')!;
    const expectMsg = (r: ReturnType<typeof validateField>) => {
      if (r.ok) throw new Error('expected a failure');
      return r.message;
    };
    expect(await within(dialog).findByText(expectMsg(validateField(name, undefined)))).toBeTruthy();
    expect(within(dialog).getByText(expectMsg(validateField(amount, undefined)))).toBeTruthy();

    // too long, too many decimals, out of range: same texts as the server would give
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '这是一个超过十个字符的名称' } });
    expect(await within(dialog).findByText(expectMsg(validateField(name, '这是一个超过十个字符的名称')))).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('金额'), { target: { value: '1.234' } });
    expect(await within(dialog).findByText(expectMsg(validateField(amount, '1.234')))).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('排序'), { target: { value: '1000' } });
    fireEvent.blur(within(dialog).getByLabelText('排序'));
    expect(await within(dialog).findByText(expectMsg(validateField(sort, 1000)))).toBeTruthy();
    // sections of the definition become headings
    expect(within(dialog).getByText('其他')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('Enter submits, the server field errors land on their fields, success says 添加成功', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '新部件' } });
    fireEvent.change(within(dialog).getByLabelText('金额'), { target: { value: '12.5' } });
    fireEvent.change(within(dialog).getByLabelText('排序'), { target: { value: '5' } });
    failCreateWith = { name: '名称已存在' };
    fireEvent.keyDown(within(dialog).getByLabelText('名称'), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').length).toBe(1));
    expect(await within(dialog).findByText('名称已存在', { selector: '.ant-form-item-explain-error' })).toBeTruthy();

    failCreateWith = null;
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '新部件2' } });
    fireEvent.keyDown(within(dialog).getByLabelText('名称'), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').length).toBe(2));
    const post = calls.filter((c) => c.method === 'POST').at(-1)!;
    expect(post.body).toMatchObject({ name: '新部件2', amount: '12.5', sort: 5, active: null, note: null });
    expect(await screen.findByText('添加成功')).toBeTruthy();
  });

  it('an edit opened after an add shows the row, not the values typed before', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-add'));
    let dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '临时输入' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    fireEvent.click(screen.getAllByTestId('crud-edit')[1]);
    dialog = (await screen.findByText('编辑部件')).closest('.ant-modal') as HTMLElement;
    expect((within(dialog).getByLabelText('名称') as HTMLInputElement).value).toBe('部件2');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').length).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ id: 2, name: '部件2', amount: 1234567.5, sort: 1 });
  });

  it('editAfterCreate: the new row stays open in edit mode with dialogAfter below the form; the next 确定 is a PUT of it', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} editAfterCreate dialogAfter={({ mode, record }) => <div data-testid="after">{`${mode}:${record?.id ?? '-'}`}</div>} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('after').textContent).toBe('create:-');
    // outside the form: Enter in it does not submit the dialog
    expect(within(dialog).getByTestId('after').closest('form')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: '新部件' } });
    fireEvent.change(within(dialog).getByLabelText('金额'), { target: { value: '12.5' } });
    fireEvent.change(within(dialog).getByLabelText('排序'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(screen.getByTestId('after').textContent).toBe('edit:99'));
    expect(screen.getByText('编辑部件')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').length).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ id: 99, name: '新部件', sort: 5 });
    expect(calls.filter((c) => c.method === 'POST').length).toBe(1);
  });

  it('removes buttons the user has no code for; no action column without edit or delete', async () => {
    loginAs(['WIDGET_SELECT']);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    expect(screen.queryByTestId('crud-add')).toBeNull();
    expect(screen.queryByTestId('crud-batch-delete')).toBeNull();
    expect(screen.queryByTestId('crud-edit')).toBeNull();
    expect(screen.queryByTestId('crud-delete')).toBeNull();
    expect(screen.queryByTestId('crud-import')).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('操作');
    // export needs only the select code
    expect(screen.getByTestId('crud-export')).toBeTruthy();
  });

  it('shows only delete when holding only the delete code', async () => {
    loginAs(['WIDGET_DELETE']);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    expect(screen.queryByTestId('crud-add')).toBeNull();
    expect(screen.queryByTestId('crud-edit')).toBeNull();
    expect(screen.getAllByTestId('crud-delete').length).toBe(3);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('操作');
  });

  it('goes back one page after deleting the last row of a page', async () => {
    total = 11;
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('部件11');
    expect(screen.getAllByTestId('crud-delete').length).toBe(1);
    fireEvent.click(screen.getByTestId('crud-delete'));
    expect(await screen.findByText('确定删除本条数据吗？')).toBeTruthy();
    const pop = document.querySelector('.ant-popconfirm') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/widget/11')).toBe(true));
    await waitFor(() => expect(listCalls().at(-1)?.query).toMatchObject({ page: '0' }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    await screen.findByText('部件10');
  });

  it('batch delete sends the selected ids after its own confirmation', async () => {
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    await batchDeleteRows([0, 2]);
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({ path: '/api/widget', body: [1, 3] }));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });

  it('imports one xls/xlsx file and shows the per-row result with the error sheet link', async () => {
    const sent: { url: string; auth?: string; language?: string; file?: File }[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload = { onprogress: null as null | ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) };
      onload: null | (() => void) = null;
      onerror: null | (() => void) = null;
      ontimeout: null | (() => void) = null;
      private url = '';
      private headers: Record<string, string> = {};
      open(_m: string, url: string) {
        this.url = url;
      }
      setRequestHeader(k: string, v: string) {
        this.headers[k] = v;
      }
      send(data: FormData) {
        sent.push({ url: this.url, auth: this.headers.Authorization, language: this.headers['Accept-Language'], file: data.get('file') as File });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
        setTimeout(() => {
          this.status = 200;
          this.responseText = JSON.stringify({ total: 3, inserted: 1, updated: 1, failed: 1, errors: [{ row: 4, column: '金额', message: '金额最多两位小数' }], errorFileId: 'abc' });
          this.onload?.();
        }, 10);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    loginAs(ALL_CODES);
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-import'));
    const dialog = (await screen.findByText('导入部件')).closest('.ant-modal') as HTMLElement;
    // the upload control replaces its <input> after every choice
    const input = () => dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input(), { target: { files: [new File(['x'], 'data.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('上传文件只能是 xls/xlsx 格式!')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('import-submit'));
    expect(await screen.findByText('请选择要上传的文件')).toBeTruthy();
    fireEvent.change(input(), { target: { files: [new File(['x'], 'data.xlsx')] } });
    await within(dialog).findByText('data.xlsx');
    fireEvent.click(within(dialog).getByTestId('import-submit'));
    const result = await within(dialog).findByTestId('import-result');
    // the row errors and the error sheet are asked for in the UI's language, not the browser's
    expect(sent[0]).toMatchObject({ url: '/api/import/widget', auth: 'Bearer test-token', language: 'zh' });
    expect(sent[0].file?.name).toBe('data.xlsx');
    // a partial success reads as partial: saved and unsaved counts, the warning colour, no red ✖ bar (U9)
    expect(result.textContent).toContain('共 3 行：已保存 2 行（新增 1，更新 1），未保存 1 行');
    expect(result.querySelector('.ant-alert-warning')).toBeTruthy();
    expect(dialog.querySelector('.ant-progress-status-exception')).toBeNull();
    expect(within(dialog).getByTestId('import-progress-partial')).toBeTruthy();
    expect(within(result).getByText('金额最多两位小数')).toBeTruthy();
    expect(within(result).getByText('下载错误明细')).toBeTruthy();
  });

  it('remembers hidden columns per user and resource', async () => {
    loginAs(ALL_CODES);
    const { unmount } = renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    fireEvent.click(screen.getByTestId('crud-columns'));
    const settings = await screen.findByTestId('crud-column-settings');
    await act(async () => {
      fireEvent.click(within(settings).getByText('比例'));
    });
    expect(JSON.parse(localStorage.getItem(columnPrefsKey('tester', 'widget')) ?? '{}').hidden).toEqual(['rate']);
    unmount();
    renderWithApp(<ResourcePage resource={testDef} />);
    await screen.findByText('部件1');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('比例');
  });

  // the chooser starts on the person's name (U22)
  it('searches HR records by one chosen field (fieldChooser)', async () => {
    calls = installFakeFetch((call) => (call.path === '/api/accEntry' ? page([]) : call.path === '/api/dictDetail/map' ? { body: {} } : undefined));
    loginAs(['ACCENTRY_ALL']);
    renderWithApp(<ResourcePage resource="accEntry" />);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/accEntry')).toBe(true));
    fireEvent.change(screen.getByTestId('crud-search-value'), { target: { value: '张三' } });
    fireEvent.click(screen.getByTestId('crud-search'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/accEntry').at(-1)?.query).toMatchObject({ name: '张三', page: '0' }));
  });
});
