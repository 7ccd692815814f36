import { ClearOutlined } from '@ant-design/icons';
import { resetSqlStatistics, type SqlStatement, sqlStatistics } from '@app/shared/contracts/monitor';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Popconfirm, Row, Select, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { callContract, contractKey } from '../../app/contractClient';
import { useApiMutation } from '../../crud/mutations';
import { SearchItem } from '../../crud/SearchBar';
import { ListToolbar } from '../../crud/usePagedList';
import { timeTagColor } from '../monitor/LogPage';
import '../../crud/crud.css';
import './tools.css';
// U19: one date format everywhere (yyyy-MM-dd HH:mm:ss), not the browser's locale (2026/11/26)
import { formatDateTime } from '../../crud/format';

/**
 * 系统工具 › SQL监控 (issue 12 item 7): an in-app screen (no frame to another console) over the statement
 * statistics the server's database layer collects — summary cards, the statements sortable by count, total,
 * average and maximum time, a window switch (since start / last 5 / last 60 minutes) and a reset with a
 * confirmation. Refreshes every 10 s while open.
 */

/** One statement of the monitor (the server's figures, one definition in packages/shared). */
export type StatementRow = SqlStatement;

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(2));
const time = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

export default function SqlMonitorPage() {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const [period, setPeriod] = useState<'all' | '5' | '60'>('all');
  const q = useQuery({
    queryKey: [...contractKey(sqlStatistics), period],
    queryFn: () => callContract(sqlStatistics, { query: { window: period, sort: 'totalMs', limit: 1000 } }),
    refetchInterval: 10_000,
  });
  const clear = useApiMutation({
    mutationFn: () => callContract(resetSqlStatistics, {}),
    success: t('sql.resetDone'),
    invalidate: [contractKey(sqlStatistics)],
  });
  // a promise: the popover's 确定 spins until the server answered
  const reset = () => clear.mutateAsync().catch(() => undefined);
  const s = q.data;
  const [search, setSearch] = useState('');
  const needle = search.toLowerCase();
  const statements = (s?.statements ?? []).filter((st) => !needle || st.sql.toLowerCase().includes(needle));
  const columns: ColumnsType<StatementRow> = [
    {
      key: 'sql',
      title: t('sql.statement'),
      dataIndex: 'sql',
      render: (v: string, r) => (
        <div>
          <Space size={4} style={{ marginBottom: 2 }}>
            <Tag>{r.kind}</Tag>
            {r.errors > 0 && (
              <Tooltip title={r.lastError}>
                <Tag color="error">{t('sql.errorsTag', { n: r.errors, count: r.errors })}</Tag>
              </Tooltip>
            )}
            {r.slow > 0 && <Tag color="warning">{t('sql.slowTag', { n: r.slow })}</Tag>}
          </Space>
          <Typography.Paragraph className="sql-text" ellipsis={{ rows: 3, expandable: true, symbol: t('sql.more') }} copyable={{ text: v }} style={{ marginBottom: 0 }}>
            {v}
          </Typography.Paragraph>
        </div>
      ),
    },
    { key: 'count', title: t('sql.count'), dataIndex: 'count', width: 100, align: 'right', sorter: (a, b) => a.count - b.count },
    { key: 'totalMs', title: t('sql.totalMs'), dataIndex: 'totalMs', width: 120, align: 'right', sorter: (a, b) => a.totalMs - b.totalMs, defaultSortOrder: 'descend', render: ms },
    { key: 'avgMs', title: t('sql.avgMs'), dataIndex: 'avgMs', width: 110, align: 'right', sorter: (a, b) => a.avgMs - b.avgMs, render: (v: number) => <Tag color={timeTagColor(v)}>{ms(v)}</Tag> },
    {
      key: 'maxMs',
      title: t('sql.maxMs'),
      dataIndex: 'maxMs',
      width: 120,
      align: 'right',
      sorter: (a, b) => a.maxMs - b.maxMs,
      render: (v: number, r) => (
        <Tooltip
          title={
            <div>
              <div>{t('sql.maxAt', { at: time(r.maxAt) })}</div>
              <div>{t('sql.maskedParams', { params: r.maxParams.join(', ') || '—' })}</div>
            </div>
          }
        >
          <Tag color={timeTagColor(v)}>{ms(v)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'lastAt', title: t('sql.lastAt'), dataIndex: 'lastAt', width: 170, render: time },
  ];
  return (
    <Card variant="borderless" className="crud-page" data-testid="sql-monitor-page">
      {/* U19: the labelled filter row and toolbar of every list (ListToolbar), the statistics window a labelled filter */}
      <ListToolbar
        ns="crud"
        search={{ label: t('sql.statement'), placeholder: t('sql.searchHint'), onSearch: setSearch, testId: 'sql-search', width: 240 }}
        filters={
          <SearchItem label={t('sql.window')}>
            {/* a select like the other filter rows' (a three-part switch was wider than a phone in English) */}
            <Select
              value={period}
              onChange={(v) => setPeriod(v)}
              style={{ width: 150 }}
              options={[
                { value: 'all', label: t('sql.windowAll') },
                { value: '5', label: t('sql.window5') },
                { value: '60', label: t('sql.window60') },
              ]}
              data-testid="sql-window"
            />
          </SearchItem>
        }
        extra={
          <>
            {hasPermission(['SQL_MONITOR_ALL', 'SQL_MONITOR_DELETE']) && (
              <Popconfirm title={t('sql.resetConfirm')} okText={t('ok')} cancelText={t('cancel')} onConfirm={reset}>
                <Button danger icon={<ClearOutlined />} data-testid="sql-reset">
                  {t('sql.reset')}
                </Button>
              </Popconfirm>
            )}
            {s && (
              <Typography.Text type="secondary">
                {t('sql.since', { since: time(s.since), dialect: s.dialect })}
              </Typography.Text>
            )}
          </>
        }
        onRefresh={() => q.refetch()}
      />
      {s?.capped && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('sql.capped', { max: s.maxStatements })} />}
      <Row gutter={[12, 12]} className="sql-cards" style={{ marginBottom: 12 }}>
        <Col xs={12} md={8} xl={4}>
          <Card size="small" data-testid="sql-card-queries">
            <Statistic title={t('sql.queries')} value={s?.queries ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Card size="small">
            <Statistic title={t('sql.avg')} value={s ? ms(s.avgMs) : 0} suffix="ms" />
          </Card>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Card size="small">
            <Statistic title={t('sql.slowCount', { ms: s?.slowThresholdMs ?? 300 })} value={s?.slow ?? 0} styles={{ content: { color: s?.slow ? '#fa8c16' : undefined } }} />
          </Card>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Card size="small">
            <Statistic title={t('sql.errors')} value={s?.errors ?? 0} styles={{ content: { color: s?.errors ? '#ff4d4f' : undefined } }} />
          </Card>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Card size="small">
            <Statistic title={t('sql.distinct')} value={s?.distinctStatements ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Card size="small" data-testid="sql-card-pool">
            <Statistic
              title={t('sql.pool')}
              value={s?.pool ? `${s.pool.total - s.pool.idle} / ${s.pool.max}` : t('sql.poolNone')}
              suffix={s?.pool?.waiting ? t('sql.poolWaiting', { n: s.pool.waiting }) : undefined}
            />
          </Card>
        </Col>
      </Row>
      <Table<StatementRow>
        rowKey="sql"
        size="small"
        loading={q.isLoading}
        dataSource={statements}
        columns={columns}
        scroll={{ x: 900 }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (total) => t('total', { total }) }}
        data-testid="sql-statements"
      />
    </Card>
  );
}
