import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import DataSourcesPage from '../modules/operations/dataSources/DataSourcesPage';
import { type FakeCall, installFakeFetch, loginAs, renderWithApp, setupI18n } from './testUtils';

/**
 * usePagedList + ListToolbar + DeleteRowButton as 数据源管理 uses them (pages from 1 on this endpoint): the trimmed
 * name search and the type filter go back to page 1, 删除 asks first, and deleting the only row of page 2 shows
 * page 1 again.
 */

beforeAll(async () => {
  await setupI18n();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const row = (id: number) => ({
  id,
  dataName: `来源${id}`,
  code: null,
  type: 'csv',
  dbKind: null,
  dataBaseSite: null,
  dataBasePort: null,
  dataBaseUser: null,
  dataBasePassWord: '',
  dataBaseName: null,
  fileName: `f${id}.csv`,
  customDatabaseName: null,
  characterEncoding: 'UTF-8',
  tableData: [],
  rowCount: 1,
  createBy: 'admin',
  updateTime: null,
});

describe('hand-written list paging (usePagedList)', () => {
  it('searches, filters, pages and goes back a page after deleting its last row', async () => {
    let total = 11;
    const calls: FakeCall[] = installFakeFetch((call) => {
      if (call.path === '/dataOrigin/getDataOriginList') {
        const pageNumber = Number(call.query.pageNumber);
        const content = pageNumber === 1 ? Array.from({ length: Math.min(10, total) }, (_, i) => row(i + 1)) : total > 10 ? [row(11)] : [];
        return { body: { content, totalElements: total } };
      }
      if (call.method === 'POST' && call.path === '/dataOrigin/del') {
        total -= 1;
        return { body: {} };
      }
      return undefined;
    });
    const lists = () => calls.filter((c) => c.path === '/dataOrigin/getDataOriginList').map((c) => c.query);
    loginAs(['ADMIN']);
    renderWithApp(<DataSourcesPage />);

    expect(await screen.findByText('来源1')).toBeTruthy();
    expect(lists()[0]).toMatchObject({ pageNumber: '1', pageSize: '10' });
    expect(screen.getByText('共 11 条')).toBeTruthy();

    // page 2, then the search (trimmed) goes back to page 1
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('来源11')).toBeTruthy();
    expect(lists().at(-1)).toMatchObject({ pageNumber: '2' });
    fireEvent.change(screen.getByTestId('datasources-search'), { target: { value: '  来源 ' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ dataName: '来源', pageNumber: '1' }));

    // page 2 again: deleting its only row asks first, then shows page 1
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('来源11')).toBeTruthy();
    fireEvent.click(screen.getByTestId('datasource-delete'));
    expect(await screen.findByText('确定删除本条数据吗？')).toBeTruthy();
    expect(calls.some((c) => c.path === '/dataOrigin/del')).toBe(false);
    const pop = document.querySelector('.ant-popconfirm') as HTMLElement;
    fireEvent.click(within(pop).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.path === '/dataOrigin/del')?.body).toEqual({ id: 11 }));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ dataName: '来源', pageNumber: '1' }));
    expect(await screen.findByText('共 10 条')).toBeTruthy();
  });
});
