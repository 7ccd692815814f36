import { listLogs } from '@app/shared/contracts/system';
import { logResource } from '@app/shared/resources/log';
import { Card, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourceTable } from '../../crud/ResourceTable';
import { SearchBar } from '../../crud/SearchBar';
import { type Row, useResourceList } from '../../crud/useResourceList';
import '../../crud/crud.css';
import '../system/system.css';

/** Spec §9: up to 300 ms normal, up to 1000 ms warning, above danger. */
export function timeTagColor(ms: number): 'processing' | 'warning' | 'error' {
  if (ms <= 300) return 'processing';
  if (ms <= 1000) return 'warning';
  return 'error';
}

export function TimeTag({ ms }: { ms: unknown }) {
  if (ms === null || ms === undefined || ms === '') return null;
  const n = Number(ms);
  return (
    <Tag color={timeTagColor(n)} data-testid="log-time">
      {n}ms
    </Tag>
  );
}

/** Parameters are long JSON: one line with the full text on hover. */
export function ParamsCell({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value);
  return (
    <Tooltip title={<div style={{ maxHeight: 300, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{s}</div>} styles={{ root: { maxWidth: 520 } }}>
      <span className="log-params">{s}</span>
    </Tooltip>
  );
}

/** The log lists search one keyword box (用户名, 描述, 方法, 参数, IP), not the per-column filters. */
const LOG_FILTERS_EXCLUDED = ['username', 'description'];

export interface LogTableProps {
  url: string;
  tableKey: string;
  /** Column keys to show, in order. */
  columns: string[];
  rowActions?: (row: Row) => ReactNode;
  testId: string;
  /** Offer the text search (default true). */
  searchable?: boolean;
  /** Leave out the toolbar tools (refresh, columns). */
  compact?: boolean;
}

/** A log list (operation log, error log, own log): read-only table with a text search. */
export function LogTable({ url, tableKey, columns, rowActions, testId, searchable = true, compact }: LogTableProps) {
  const { t } = useTranslation('system');
  const list = useResourceList(logResource, { url, defaultSort: [['id', 'desc']] });
  const pick = (cols: ColumnsType<Row>) => columns.map((k) => cols.find((c) => c.key === k)).filter((c): c is NonNullable<typeof c> => !!c);
  return (
    <div data-testid={testId}>
      {searchable && (
        <SearchBar def={logResource} filters={list.filters} onSearch={list.search} exclude={LOG_FILTERS_EXCLUDED} keyword={{ placeholder: t('log.searchPlaceholder'), testId: 'log-search', width: 280 }} />
      )}
      <ResourceTable
        def={logResource}
        list={list}
        tableKey={tableKey}
        columns={pick}
        render={{ time: (v) => <TimeTag ms={v} />, params: (v) => <ParamsCell value={v} /> }}
        forceActions={!!rowActions}
        rowActions={rowActions}
        actionsWidth={100}
        expandable={false}
        hideTools={compact}
        size={compact ? 'small' : undefined}
      />
    </div>
  );
}

/** Operation log (spec §2): username, IP, description, method, params, time tag, createTime. */
export default function LogPage() {
  return (
    <Card variant="borderless" className="crud-page">
      <LogTable url={listLogs.path} tableKey="logs" testId="log-page" columns={['username', 'requestIp', 'description', 'method', 'params', 'time', 'createTime']} />
    </Card>
  );
}
