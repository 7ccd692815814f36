import { type CacheEntry, cacheInfo, clearCache, deleteCache, listCacheKeys, MAX_LISTED_KEYS } from '@app/shared/contracts/monitor';
import { ClearOutlined, DeleteOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { feedback, notify } from '../../app/feedback';
import { callContract, contractCodes, contractKey } from '../../app/contractClient';
import '../../crud/crud.css';

const PAGE_SIZES = [10, 20, 50, 100];
/** Every query of the screen lives under the key list's contract key (one invalidation refreshes both). */
const CACHE_KEY = contractKey(listCacheKeys);
/** The server's cap on matching keys. */
const MAX_LISTED = MAX_LISTED_KEYS;

/**
 * 系统监控 › 缓存管理 (`api/redis`): an info card (cache kind, namespaces with their key counts), the keys of
 * the application by search text and namespace with masked values, delete a key or a whole namespace where
 * the server allows it, and 清空缓存, which clears the rebuildable caches only.
 */
export default function CachePage() {
  const { t } = useTranslation('cache');
  const { t: tc } = useTranslation('common');
  const { hasPermission } = useAuth();
  const canDelete = hasPermission(contractCodes(deleteCache));
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('*');
  const [search, setSearch] = useState('*');
  const [namespace, setNamespace] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);

  const info = useQuery({ queryKey: [...CACHE_KEY, 'info'], queryFn: () => callContract(cacheInfo, {}) });
  const list = useQuery({
    queryKey: [...CACHE_KEY, 'keys', search, namespace, page, size],
    queryFn: () => callContract(listCacheKeys, { query: { key: search, namespace, page, size } }),
    placeholderData: (previous) => previous,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: CACHE_KEY });

  const remove = useMutation({
    mutationFn: (body: { key: string } | { namespace: string }) => callContract(deleteCache, { body }),
    onSuccess: (r) => {
      notify.success(t('deleted', { count: r.deleted }));
      return refresh();
    },
  });
  const clearAll = useMutation({
    mutationFn: () => callContract(clearCache, {}),
    onSuccess: (r) => {
      notify.success(t('deleted', { count: r.deleted }));
      return refresh();
    },
  });

  const confirm = (content: string, onOk: () => Promise<unknown>) =>
    feedback.modal.confirm({ title: t('title'), content, okText: tc('actions.ok'), cancelText: tc('actions.cancel'), onOk: () => onOk().catch(() => undefined) });

  const runSearch = () => {
    setPage(0);
    setSearch(draft.trim() || '*');
  };
  const reset = () => {
    setDraft('*');
    setSearch('*');
    setNamespace(undefined);
    setPage(0);
  };

  const namespaces = info.data?.namespaces ?? [];
  const chosen = namespaces.find((n) => n.name === namespace);
  const columns: ColumnsType<CacheEntry> = [
    { title: t('key'), dataIndex: 'key', width: 320, ellipsis: { showTitle: true }, render: (key: string) => <Typography.Text copyable={{ text: key }}>{key}</Typography.Text> },
    {
      title: t('namespace'),
      dataIndex: 'namespace',
      width: 170,
      render: (ns: string, row) => (
        <Space size={4}>
          <span>{ns}</span>
          <Tag color={row.kind === 'rebuildable' ? 'green' : 'orange'}>{t(row.kind)}</Tag>
        </Space>
      ),
    },
    { title: t('type'), dataIndex: 'type', width: 80 },
    {
      title: t('value'),
      dataIndex: 'value',
      render: (value: string) => (
        <Typography.Text className="cache-value" ellipsis={{ tooltip: value }} style={{ maxWidth: '100%' }}>
          {value}
        </Typography.Text>
      ),
    },
    { title: t('ttl'), dataIndex: 'ttl', width: 110, render: (ttl: number | null) => (ttl === null ? t('noExpiry') : t('seconds', { count: ttl })) },
  ];
  if (canDelete) {
    columns.push({
      title: tc('actions.delete'),
      key: 'actions',
      width: 90,
      fixed: 'right',
      render: (_, row) =>
        row.deletable ? (
          <Button size="small" type="link" danger icon={<DeleteOutlined />} data-testid="cache-delete-key" onClick={() => confirm(t('confirmDelete'), () => remove.mutateAsync({ key: row.key }))}>
            {t('deleteKey')}
          </Button>
        ) : (
          <Tooltip title={t('protectedHint')}>
            <Button size="small" type="link" disabled icon={<DeleteOutlined />}>
              {t('deleteKey')}
            </Button>
          </Tooltip>
        ),
    });
  }

  const server = info.data?.server;
  return (
    <Card variant="borderless" className="crud-page" data-testid="cache-page">
      {server && (
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} style={{ marginBottom: 12 }} data-testid="cache-info">
          <Descriptions.Item label={t('server')}>{server.kind === 'redis' ? `${t('redis')} ${server.version ?? ''}` : t('memory')}</Descriptions.Item>
          <Descriptions.Item label={t('keys')}>{namespaces.reduce((n, ns) => n + ns.count, 0)}</Descriptions.Item>
          {server.usedMemory ? <Descriptions.Item label={t('usedMemory')}>{server.usedMemory}</Descriptions.Item> : null}
          {server.connectedClients ? <Descriptions.Item label={t('clients')}>{server.connectedClients}</Descriptions.Item> : null}
        </Descriptions>
      )}
      <Space wrap className="crud-search" style={{ marginBottom: 12 }}>
        <Input
          allowClear
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={runSearch}
          placeholder={t('searchKey')}
          aria-label={t('key')}
          style={{ width: 240 }}
          data-testid="cache-search"
        />
        <Select
          allowClear
          value={namespace}
          onChange={(v) => {
            setNamespace(v);
            setPage(0);
          }}
          placeholder={t('allNamespaces')}
          aria-label={t('namespace')}
          style={{ width: 260 }}
          data-testid="cache-namespace"
          options={namespaces.map((n) => ({ value: n.name, label: `${n.name}${n.title ? ` · ${n.title}` : ''} (${n.count})` }))}
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={runSearch} data-testid="cache-search-button">
          {tc('actions.search')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={reset}>
          {tc('actions.reset')}
        </Button>
      </Space>
      {canDelete && (
        <Space wrap className="crud-toolbar" style={{ marginBottom: 12 }}>
          <Tooltip title={t('clearHint')}>
            <Button danger icon={<ClearOutlined />} loading={clearAll.isPending} data-testid="cache-clear-all" onClick={() => confirm(t('confirmClear'), () => clearAll.mutateAsync())}>
              {t('clearAll')}
            </Button>
          </Tooltip>
          {chosen && (
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={!chosen.deletable || chosen.count === 0}
              data-testid="cache-delete-namespace"
              onClick={() => confirm(t('confirmDeleteNamespace', { name: chosen.name, count: chosen.count }), () => remove.mutateAsync({ namespace: chosen.name }))}
            >
              {t('deleteNamespace')}
            </Button>
          )}
          <Typography.Text type="secondary">{t('clearHint')}</Typography.Text>
        </Space>
      )}
      {list.data?.truncated && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('truncated', { count: MAX_LISTED })} />}
      <Table<CacheEntry>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={list.data?.content ?? []}
        loading={list.isFetching}
        scroll={{ x: 1000 }}
        data-testid="cache-table"
        pagination={{
          current: page + 1,
          pageSize: size,
          total: list.data?.totalElements ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('total', { count: total }),
          onChange: (p, s) => {
            setPage(s !== size ? 0 : p - 1);
            setSize(s);
          },
        }}
      />
    </Card>
  );
}
