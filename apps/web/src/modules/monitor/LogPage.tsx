import { logResource } from '@app/shared/resources/log';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourceTable } from '../../crud/ResourceTable';
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

export function LogSearch({ onSearch }: { onSearch: (f: Record<string, unknown>) => void }) {
  const { t } = useTranslation('system');
  const [value, setValue] = useState('');
  return (
    <Space.Compact className="crud-search">
      <Input
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={() => onSearch({ blurry: value })}
        placeholder={t('log.searchPlaceholder')}
        allowClear
        style={{ width: 280 }}
        data-testid="log-search"
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={() => onSearch({ blurry: value })} data-testid="crud-search">
        {t('common.search')}
      </Button>
    </Space.Compact>
  );
}

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
  const list = useResourceList(logResource, { url, defaultSort: [['id', 'desc']] });
  const pick = (cols: ColumnsType<Row>) => columns.map((k) => cols.find((c) => c.key === k)).filter((c): c is NonNullable<typeof c> => !!c);
  return (
    <div data-testid={testId}>
      {searchable && <LogSearch onSearch={list.search} />}
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
      <LogTable url="/api/logs" tableKey="logs" testId="log-page" columns={['username', 'requestIp', 'description', 'method', 'params', 'time', 'createTime']} />
    </Card>
  );
}
