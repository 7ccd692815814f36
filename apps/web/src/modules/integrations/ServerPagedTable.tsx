import type { ContractResult, ContractShape } from '@app/shared/contracts/contract';
import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { callContract, contractKey } from '../../app/contractClient';

/** A paged list contract: `GET ?page&size` (0-based) with optional filters, answering `{content, totalElements}`. */
type PagedListContract = ContractShape & { method: 'GET' };
type RowOf<C extends ContractShape> = ContractResult<C> extends { content: (infer R)[] } ? R : never;

/**
 * A read-only record list of the integration tools (发送记录, 测试订单) over its list contract, shown 10 a page with
 * the usual page sizes. `params` are the list's filters (give the table a `key` that changes with them, so that a
 * new search starts on the first page). Invalidate `contractKey(contract)` to reload it.
 */
export function ServerPagedTable<C extends PagedListContract>({
  contract,
  columns,
  testId,
  params,
}: {
  contract: C;
  columns: ColumnsType<RowOf<C>>;
  testId: string;
  params?: Record<string, string | undefined>;
}) {
  const [page, setPage] = useState({ page: 0, size: 10 });
  const q = useQuery({
    queryKey: [...contractKey(contract), page, params],
    // the list contracts' queries take the paging fields and their filters (checked by the server)
    queryFn: () => callContract(contract, { query: { ...params, ...page } } as never) as Promise<{ content: RowOf<C>[]; totalElements: number }>,
  });
  return (
    <Table<RowOf<C>>
      size="small"
      rowKey="id"
      data-testid={testId}
      loading={q.isLoading}
      dataSource={q.data?.content ?? []}
      scroll={{ x: 900 }}
      pagination={{
        current: page.page + 1,
        pageSize: page.size,
        total: q.data?.totalElements ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 30, 50],
        onChange: (p, s) => setPage({ page: p - 1, size: s }),
      }}
      columns={columns}
    />
  );
}
