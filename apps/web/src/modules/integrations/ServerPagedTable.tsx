import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { api } from '../../app/request';

/**
 * A read-only record list of the integration tools (发送记录, 测试订单): `GET url?page&size` (0-based) answering
 * `{content, totalElements}`, shown 10 a page with the usual page sizes. `params` are the list's filters (give the
 * table a `key` that changes with them, so that a new search starts on the first page).
 */
export function ServerPagedTable<T extends { id: number }>({ url, queryKey, columns, testId, params }: { url: string; queryKey: string; columns: ColumnsType<T>; testId: string; params?: Record<string, string | undefined> }) {
  const [page, setPage] = useState({ page: 0, size: 10 });
  const q = useQuery({ queryKey: [queryKey, page, params], queryFn: () => api.get<{ content: T[]; totalElements: number }>(url, { ...params, ...page }) });
  return (
    <Table<T>
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
