import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Collapse, Empty, Segmented, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Input } from 'antd';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { menuTitle } from '../../app/i18n';
import { API_DOCS_UI_PATH, apiDocument } from '@app/shared/contracts/apiDocs';
import { useContractQuery } from '../../app/contractClient';
import { authHeaders } from '../../app/session';
import { SearchButtons, SearchItem, SearchRow } from '../../crud/SearchBar';
import { type ApiField, type ApiOperation, groupOperations } from './apiDocsModel';
import '../../crud/crud.css';
import './tools.css';

/** Where the server serves its local Swagger UI (apps/server/src/crud/apiDocs.ts). */
/** The server's Swagger UI page (a trailing slash: its relative asset links resolve under it). */
const API_DOCS_UI = `${API_DOCS_UI_PATH}/`;

// antd preset colours: they follow the light and dark themes (no hard-coded colour, U25)
const METHOD_COLOR: Record<string, string> = { get: 'blue', post: 'green', put: 'orange', patch: 'cyan', delete: 'red' };

/**
 * 系统工具 › 接口文档 (U25): the server's OpenAPI document read in the app's own design — labels from the catalogue
 * (zh/en/es/ja), the groups in menu order (the server orders the tags), one labelled search, theme colours — and,
 * for trying calls, the server's local Swagger UI (no CDN, its branded top bar hidden) in a frame of our own
 * origin. The frame asks this window for the session's headers (`__apiDocsHeaders`: the CSRF token of the cookie
 * session) so that the document and "Try it out" calls carry them; the server lets only ADMIN or API_DOCS_* read
 * the document.
 */
export default function ApiDocsPage() {
  const { t } = useTranslation('tools');
  const [view, setView] = useState<'read' | 'try'>('read');
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const inputId = useId();
  useEffect(() => {
    const w = window as unknown as { __apiDocsHeaders?: () => Record<string, string> };
    w.__apiDocsHeaders = authHeaders;
    return () => {
      delete w.__apiDocsHeaders;
    };
  }, []);
  const q = useContractQuery(apiDocument, {}, { staleTime: 5 * 60_000 });
  const tagLabel = (tag: string) => t(`apiDocs.tags.${tag}`, { defaultValue: menuTitle(tag) });
  // biome-ignore lint/correctness/useExhaustiveDependencies: tagLabel follows the language, which re-renders through t
  const groups = useMemo(() => groupOperations(q.data, search, tagLabel), [q.data, search, t]);
  const count = groups.reduce((n, g) => n + g.operations.length, 0);

  return (
    <div data-testid="api-docs-page">
      <SearchRow>
        <SearchItem label={t('apiDocs.search')} htmlFor={inputId}>
          <Input id={inputId} allowClear placeholder={t('apiDocs.searchHint')} value={draft} onChange={(e) => setDraft(e.target.value)} onPressEnter={() => setSearch(draft)} style={{ width: 260 }} data-testid="api-docs-search" />
        </SearchItem>
        <SearchButtons
          onSearch={() => setSearch(draft)}
          onReset={() => {
            setDraft('');
            setSearch('');
          }}
          searchTestId="api-docs-search-submit"
        />
      </SearchRow>
      <div className="crud-toolbar">
        <Space wrap>
          <Segmented
            value={view}
            onChange={(v) => setView(v as 'read' | 'try')}
            options={[
              { value: 'read', label: t('apiDocs.read') },
              { value: 'try', label: t('apiDocs.tryOut') },
            ]}
            data-testid="api-docs-view"
          />
          {view === 'read' && q.data && <Typography.Text type="secondary">{t('apiDocs.count', { count, groups: groups.length })}</Typography.Text>}
        </Space>
        <Tooltip title={t('apiDocs.refresh')}>
          <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()} aria-label={t('apiDocs.refresh')} />
        </Tooltip>
      </div>
      {view === 'try' ? (
        <iframe title={menuTitle('接口文档')} src={API_DOCS_UI} data-testid="api-docs-frame" style={{ width: '100%', height: 'calc(100vh - 220px)', minHeight: 480, border: 0 }} />
      ) : q.isLoading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : q.isError ? (
        <Alert type="error" showIcon message={t('apiDocs.loadFailed')} />
      ) : (
        <>
          <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('apiDocs.errors')} />
          {groups.length === 0 ? (
            <Empty description={t('apiDocs.none')} />
          ) : (
            <Collapse
              data-testid="api-docs-groups"
              items={groups.map((g) => ({
                key: g.tag,
                label: (
                  <Space>
                    <Typography.Text strong>{tagLabel(g.tag)}</Typography.Text>
                    <Tag>{g.operations.length}</Tag>
                  </Space>
                ),
                children: <Operations operations={g.operations} />,
              }))}
            />
          )}
        </>
      )}
    </div>
  );
}

function Operations({ operations }: { operations: ApiOperation[] }) {
  return (
    <Collapse
      size="small"
      items={operations.map((op) => ({
        key: op.key,
        label: (
          <span className="api-docs-op">
            <Tag color={METHOD_COLOR[op.method]} className="api-docs-method">
              {op.method.toUpperCase()}
            </Tag>
            <Typography.Text code className="api-docs-path">
              {op.path}
            </Typography.Text>
            <Typography.Text>{op.summary}</Typography.Text>
          </span>
        ),
        children: <OperationDetail op={op} />,
      }))}
    />
  );
}

function OperationDetail({ op }: { op: ApiOperation }) {
  const { t } = useTranslation('tools');
  const columns: ColumnsType<ApiField> = [
    { key: 'name', title: t('apiDocs.name'), dataIndex: 'name', width: 180, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { key: 'in', title: t('apiDocs.in'), dataIndex: 'in', width: 90, render: (v: string) => t(`apiDocs.where.${v}`, { defaultValue: v }) },
    { key: 'required', title: t('apiDocs.required'), dataIndex: 'required', width: 80, render: (v: boolean) => (v ? <Tag color="red">{t('apiDocs.yes')}</Tag> : t('apiDocs.no')) },
    { key: 'type', title: t('apiDocs.type'), dataIndex: 'type', width: 140 },
    { key: 'description', title: t('apiDocs.description'), dataIndex: 'description' },
  ];
  return (
    <div>
      {op.description && <Typography.Paragraph style={{ whiteSpace: 'pre-line' }}>{op.description}</Typography.Paragraph>}
      {op.bodyType && <Typography.Paragraph type="secondary">{t('apiDocs.bodyType', { type: op.bodyType })}</Typography.Paragraph>}
      {op.fields.length ? (
        <Table<ApiField> size="small" rowKey={(f) => `${f.in}:${f.name}`} columns={columns} dataSource={op.fields} pagination={false} scroll={{ x: 700 }} />
      ) : (
        <Typography.Text type="secondary">{t('apiDocs.noFields')}</Typography.Text>
      )}
    </div>
  );
}
