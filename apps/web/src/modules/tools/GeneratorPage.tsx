import { CodeOutlined, DownloadOutlined, EyeOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Input, Modal, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { notify } from '../../app/feedback';
import { api, downloadBlob } from '../../app/request';
import { useApiMutation } from '../../crud/mutations';
import '../../crud/crud.css';
import './tools.css';

/**
 * 系统工具 › 代码生成 (spec §2): the tables of the database (search by name, paging), the generator's
 * configuration dialog, and per table the column settings (an editable table) and the generated files —
 * a preview with one tab per file, and the zip download. The server generates; nothing is written to its
 * source tree.
 */

interface TableRow {
  tableName: string;
  engine: string;
  coding: string;
  remark: string;
  createTime: string | null;
  resource: string | null;
  configured: boolean;
}
export interface ColumnRow {
  columnName: string;
  columnType: string;
  columnComment: string;
  label: string;
  kind: string;
  columnQuery: '' | '1' | '2';
  columnShow: boolean;
  formShow: boolean;
  required: boolean;
  dictName: string;
  notNull: boolean;
  primaryKey: boolean;
  autoIncrement: boolean;
  maxLength: number | null;
  stored: boolean;
}
interface GenConfig {
  author: string;
  pack: string;
  moduleName: string;
  path: string;
  apiPath: string;
  cover: boolean;
  prefix: string;
  menuParent: string;
  menuIcon: string;
}
interface Preview {
  tableName: string;
  resourceName: string;
  files: { path: string; language: string; content: string }[];
  warnings: { code: 'NAME_TAKEN' | 'TABLE_DEFINED'; value: string }[];
}

/** The field kinds the server accepts (modules/tools/generator/generate.ts GENERATABLE_KINDS). */
export const KINDS = ['string', 'text', 'int', 'money', 'ratio', 'date', 'month', 'datetime', 'bool', 'dict', 'idCard', 'phone', 'email'] as const;
const CODES = { read: ['GENERATOR_ALL', 'GENERATOR_SELECT'], edit: ['GENERATOR_ALL', 'GENERATOR_EDIT'], create: ['GENERATOR_ALL', 'GENERATOR_CREATE'] };

/** The settings the server stores for a column (what PUT and POST send). */
export function columnPayload(rows: ColumnRow[]) {
  return rows.map(({ columnName, label, kind, columnQuery, columnShow, formShow, required, dictName }) => ({ columnName, label, kind, columnQuery, columnShow, formShow, required, dictName }));
}

/** The column settings of one table as an editable table; saved with PUT /api/generator/columns. */
function ColumnDialog({ table, onClose, onPreview }: { table: string; onClose: () => void; onPreview: (rows: ColumnRow[]) => void }) {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(CODES.edit);
  const [rows, setRows] = useState<ColumnRow[] | null>(null);
  const q = useQuery({
    queryKey: ['generator', 'columns', table],
    queryFn: () => api.get<{ content: ColumnRow[] }>('/api/generator/columns', { tableName: table }),
  });
  useEffect(() => {
    if (q.data) setRows(q.data.content.map((r) => ({ ...r })));
  }, [q.data]);
  const edit = (name: string, patch: Partial<ColumnRow>) => setRows((rs) => rs?.map((r) => (r.columnName === name ? { ...r, ...patch } : r)) ?? rs);
  // the table's columns and previews are read again after saving
  const saveColumns = useApiMutation<unknown, ColumnRow[]>({
    mutationFn: (cols) => api.put('/api/generator/columns', columnPayload(cols), { params: { tableName: table } }),
    success: t('generator.saved'),
    invalidate: [['generator']],
    onSuccess: () => onClose(),
  });
  const saving = saveColumns.isPending;
  const save = () => {
    if (rows) saveColumns.mutate(rows);
  };
  const columns: ColumnsType<ColumnRow> = [
    {
      key: 'columnName',
      title: t('generator.columnName'),
      dataIndex: 'columnName',
      width: 150,
      fixed: 'left',
      render: (v: string, r) => (
        <Space size={4}>
          <Typography.Text code>{v}</Typography.Text>
          {r.primaryKey && <Tag color="gold">PK</Tag>}
        </Space>
      ),
    },
    { key: 'columnType', title: t('generator.columnType'), dataIndex: 'columnType', width: 130, render: (v: string, r) => `${v}${r.notNull ? ' NOT NULL' : ''}` },
    {
      key: 'label',
      title: t('generator.label'),
      width: 150,
      render: (_, r) => <Input size="small" value={r.label} maxLength={100} disabled={!canEdit} onChange={(e) => edit(r.columnName, { label: e.target.value })} data-testid={`gen-label-${r.columnName}`} />,
    },
    {
      key: 'kind',
      title: t('generator.kind'),
      width: 130,
      render: (_, r) => (
        <Select
          size="small"
          style={{ width: 118 }}
          value={r.kind}
          disabled={!canEdit}
          options={KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          onChange={(kind) => edit(r.columnName, { kind, dictName: kind === 'dict' ? r.dictName : '' })}
          data-testid={`gen-kind-${r.columnName}`}
        />
      ),
    },
    {
      key: 'columnQuery',
      title: t('generator.columnQuery'),
      width: 110,
      render: (_, r) => (
        <Select
          size="small"
          style={{ width: 96 }}
          value={r.columnQuery}
          disabled={!canEdit}
          options={[
            { value: '', label: t('generator.queryNone') },
            { value: '1', label: t('generator.queryFuzzy') },
            { value: '2', label: t('generator.queryExact') },
          ]}
          onChange={(columnQuery) => edit(r.columnName, { columnQuery })}
          data-testid={`gen-query-${r.columnName}`}
        />
      ),
    },
    {
      key: 'columnShow',
      title: t('generator.columnShow'),
      width: 80,
      align: 'center',
      render: (_, r) => <Checkbox checked={r.columnShow} disabled={!canEdit} onChange={(e) => edit(r.columnName, { columnShow: e.target.checked })} data-testid={`gen-list-${r.columnName}`} />,
    },
    {
      key: 'formShow',
      title: t('generator.formShow'),
      width: 80,
      align: 'center',
      render: (_, r) => <Checkbox checked={r.formShow} disabled={!canEdit} onChange={(e) => edit(r.columnName, { formShow: e.target.checked })} />,
    },
    {
      key: 'required',
      title: t('generator.required'),
      width: 70,
      align: 'center',
      render: (_, r) => <Checkbox checked={r.required} disabled={!canEdit} onChange={(e) => edit(r.columnName, { required: e.target.checked })} />,
    },
    {
      key: 'dictName',
      title: t('generator.dictName'),
      width: 140,
      render: (_, r) => (
        <Input
          size="small"
          value={r.dictName}
          maxLength={100}
          disabled={!canEdit}
          placeholder={t('generator.dictPlaceholder')}
          onChange={(e) => {
            const dictName = e.target.value.replace(/[^A-Za-z0-9_]/g, '');
            edit(r.columnName, { dictName, kind: dictName ? 'dict' : r.kind === 'dict' ? 'string' : r.kind });
          }}
        />
      ),
    },
  ];
  return (
    <Modal
      open
      width={1180}
      title={t('generator.columnsOf', { table })}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('cancel')}
        </Button>,
        hasPermission(CODES.create) && (
          <Button key="preview" icon={<EyeOutlined />} disabled={!rows} onClick={() => rows && onPreview(rows)} data-testid="gen-columns-preview">
            {t('generator.preview')}
          </Button>
        ),
        canEdit && (
          <Button key="save" type="primary" loading={saving} disabled={!rows} onClick={save} data-testid="gen-columns-save">
            {t('save')}
          </Button>
        ),
      ]}
    >
      <Table<ColumnRow>
        rowKey="columnName"
        size="small"
        loading={q.isLoading}
        dataSource={rows ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 1040, y: 480 }}
        data-testid="gen-columns-table"
      />
    </Modal>
  );
}

/**
 * Tab names for the generated files: the file name, or as many of the last folders as make it unique
 * (fields.acPayslip.json of zh and en are 'zh/fields.acPayslip.json' and 'en/fields.acPayslip.json', U18).
 */
export function uniqueTabLabels(paths: readonly string[]): string[] {
  const parts = paths.map((p) => p.split('/'));
  return parts.map((segments) => {
    for (let n = 1; n < segments.length; n++) {
      const label = segments.slice(-n).join('/');
      if (parts.filter((other) => other.slice(-n).join('/') === label).length === 1) return label;
    }
    return segments.join('/');
  });
}

/** The generated files, one tab each, monospace; download as zip. */
function PreviewDialog({ table, columns, onClose }: { table: string; columns?: ColumnRow[]; onClose: () => void }) {
  const { t } = useTranslation('tools');
  const q = useQuery({
    queryKey: ['generator', 'preview', table, columns ? JSON.stringify(columnPayload(columns)) : ''],
    queryFn: () => api.post<Preview>('/api/generator', columns ? columnPayload(columns) : [], { params: { tableName: table, preview: true } }),
    gcTime: 0,
  });
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadBlob('/api/generator', { method: 'POST', params: { tableName: table }, data: columns ? columnPayload(columns) : [] });
      notify.success(t('generator.generated'));
    } finally {
      setDownloading(false);
    }
  };
  const preview = q.data;
  const labels = uniqueTabLabels((preview?.files ?? []).map((f) => f.path));
  return (
    <Modal
      open
      width={1100}
      // fits a 900 px high window: the body scrolls, the 关闭/下载代码 footer stays visible (U18)
      centered
      className="gen-preview"
      styles={{ body: { maxHeight: 'calc(100vh - 170px)', overflow: 'auto' } }}
      title={t('generator.previewOf', { table })}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
        <Button key="zip" type="primary" icon={<DownloadOutlined />} loading={downloading} onClick={download} data-testid="gen-download">
          {t('generator.download')}
        </Button>,
      ]}
    >
      {preview?.warnings.map((w) => (
        <Alert key={w.code} type="warning" showIcon style={{ marginBottom: 8 }} title={t(`generator.warning.${w.code}`, { value: w.value })} />
      ))}
      {q.isLoading ? (
        <div style={{ padding: 48, textAlign: 'center' }}>{t('loading')}</div>
      ) : (
        <Tabs
          data-testid="gen-preview-tabs"
          items={(preview?.files ?? []).map((f, i) => ({
            key: f.path,
            label: labels[i],
            children: (
              <div>
                <Typography.Text type="secondary" copyable={{ text: f.content }} style={{ fontSize: 12 }}>
                  {f.path}
                </Typography.Text>
                <pre className="gen-code" data-testid="gen-preview-code">
                  {f.content}
                </pre>
              </div>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

/** The generator's configuration (GET/PUT /api/genConfig) with the spec's messages. */
function ConfigDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const [form] = Form.useForm<GenConfig>();
  const q = useQuery({ queryKey: ['generator', 'config'], queryFn: () => api.get<GenConfig>('/api/genConfig') });
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data);
  }, [q.data, form]);
  const saveConfig = useApiMutation<unknown, GenConfig>({
    mutationFn: (values) => api.put('/api/genConfig', values),
    success: t('generator.saved'),
    invalidate: [['generator']],
    onSuccess: () => onClose(),
  });
  const saving = saveConfig.isPending;
  const submit = async () => {
    const values = await form.validateFields();
    saveConfig.mutate(values);
  };
  const folderRule = { pattern: /^[A-Za-z0-9_\-./]+$/, message: t('generator.folderRule') };
  return (
    <Modal open width={620} title={t('generator.config')} onCancel={onClose} onOk={submit} okButtonProps={{ loading: saving, disabled: !hasPermission(CODES.edit), 'data-testid': 'gen-config-save' } as never} destroyOnHidden>
      <Form form={form} labelCol={{ span: 7 }} wrapperCol={{ span: 16 }} disabled={!hasPermission(CODES.edit)}>
        <Form.Item name="author" label={t('generator.author')} rules={[{ required: true, whitespace: true, message: t('generator.authorRequired') }]}>
          <Input maxLength={50} data-testid="gen-config-author" />
        </Form.Item>
        <Form.Item name="pack" label={t('generator.pack')} extra={t('generator.packHint')} rules={[{ required: true, message: t('generator.packRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="moduleName" label={t('generator.moduleName')} extra={t('generator.moduleNameHint')} rules={[{ required: true, message: t('generator.packRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="path" label={t('generator.path')} extra={t('generator.pathHint')} rules={[{ required: true, message: t('generator.pathRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="apiPath" label={t('generator.apiPath')} extra={t('generator.apiPathHint')} rules={[{ required: true, message: t('generator.apiPathRequired') }, folderRule]}>
          <Input />
        </Form.Item>
        <Form.Item name="prefix" label={t('generator.prefix')} extra={t('generator.prefixHint')} rules={[{ pattern: /^[A-Za-z0-9_]*$/, message: t('generator.prefixRule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="menuParent" label={t('generator.menuParent')} extra={t('generator.menuParentHint')} rules={[{ pattern: /^[A-Za-z0-9_-]*$/, message: t('generator.menuParentRule') }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="menuIcon" label={t('generator.menuIcon')} rules={[{ pattern: /^[A-Za-z]*$/, message: t('generator.menuIconRule') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="cover" label={t('generator.cover')} valuePropName="checked" extra={t('generator.coverHint')}>
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function GeneratorPage() {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [paging, setPaging] = useState({ page: 0, size: 10 });
  const [columnsOf, setColumnsOf] = useState<string | null>(null);
  const [previewOf, setPreviewOf] = useState<{ table: string; columns?: ColumnRow[] } | null>(null);
  const [config, setConfig] = useState(false);
  const q = useQuery({
    queryKey: ['generator', 'tables', name, paging],
    queryFn: () => api.get<{ content: TableRow[]; totalElements: number }>('/api/generator/tables', { name, page: paging.page, size: paging.size }),
  });
  const runSearch = () => {
    setName(search.trim());
    setPaging((p) => ({ ...p, page: 0 }));
  };
  const download = (table: string) => downloadBlob('/api/generator', { method: 'POST', params: { tableName: table }, data: [] }).then(() => notify.success(t('generator.generated')));
  const columns: ColumnsType<TableRow> = [
    { key: 'tableName', title: t('generator.tableName'), dataIndex: 'tableName', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { key: 'remark', title: t('generator.remark'), dataIndex: 'remark', ellipsis: true },
    {
      key: 'resource',
      title: t('generator.resource'),
      dataIndex: 'resource',
      width: 170,
      render: (v: string | null, r) => (
        <Space size={4} wrap>
          {v ? <Tag color="blue">{v}</Tag> : <Tag>{t('generator.noResource')}</Tag>}
          {r.configured && <Tag color="green">{t('generator.configured')}</Tag>}
        </Space>
      ),
    },
    { key: 'engine', title: t('generator.engine'), dataIndex: 'engine', width: 110 },
    { key: 'coding', title: t('generator.coding'), dataIndex: 'coding', width: 170, ellipsis: true },
    { key: 'createTime', title: t('generator.createTime'), dataIndex: 'createTime', width: 170, render: (v: string | null) => (v ? v.replace('T', ' ').slice(0, 19) : '—') },
    {
      key: 'actions',
      title: t('actions'),
      width: 250,
      render: (_, r) => (
        <Space size={4}>
          <Button size="small" icon={<SettingOutlined />} onClick={() => setColumnsOf(r.tableName)} data-testid={`gen-columns-${r.tableName}`}>
            {t('generator.columns')}
          </Button>
          {hasPermission(CODES.create) && (
            <>
              <Button size="small" type="primary" icon={<EyeOutlined />} onClick={() => setPreviewOf({ table: r.tableName })} data-testid={`gen-preview-${r.tableName}`}>
                {t('generator.preview')}
              </Button>
              <Button size="small" icon={<DownloadOutlined />} onClick={() => download(r.tableName)} aria-label={t('generator.download')} />
            </>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card variant="borderless" className="crud-page" data-testid="generator-page">
      <div className="crud-search" style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <Space.Compact>
          <Input value={search} onChange={(e) => setSearch(e.target.value)} onPressEnter={runSearch} placeholder={t('generator.searchPlaceholder')} allowClear style={{ width: 240 }} data-testid="gen-search" />
          <Button type="primary" icon={<SearchOutlined />} onClick={runSearch}>
            {t('search')}
          </Button>
        </Space.Compact>
        <Button icon={<CodeOutlined />} onClick={() => setConfig(true)} data-testid="gen-config">
          {t('generator.config')}
        </Button>
      </div>
      <Table<TableRow>
        rowKey="tableName"
        size="middle"
        loading={q.isLoading}
        dataSource={q.data?.content ?? []}
        columns={columns}
        scroll={{ x: 1000 }}
        pagination={{
          current: paging.page + 1,
          pageSize: paging.size,
          total: q.data?.totalElements ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('total', { total }),
          onChange: (page, size) => setPaging((p) => (size !== p.size ? { page: 0, size } : { page: page - 1, size })),
        }}
        data-testid="gen-tables"
      />
      {columnsOf && (
        <ColumnDialog
          table={columnsOf}
          onClose={() => {
            setColumnsOf(null);
            void q.refetch();
          }}
          onPreview={(rows) => setPreviewOf({ table: columnsOf, columns: rows })}
        />
      )}
      {previewOf && <PreviewDialog table={previewOf.table} columns={previewOf.columns} onClose={() => setPreviewOf(null)} />}
      {config && <ConfigDialog onClose={() => setConfig(false)} />}
    </Card>
  );
}
