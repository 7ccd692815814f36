import { CodeOutlined, DownloadOutlined, EyeOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { type GeneratorColumnRow as ColumnRow, type GeneratorTableRow as TableRow, generateCode, listGeneratorTables } from '@app/shared/contracts/generator';
import { Button, Card, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { contractCodes, downloadContract, useContractQuery } from '../../../app/contractClient';
import { notify } from '../../../app/feedback';
import { ColumnDialog } from './ColumnDialog';
import { ConfigDialog } from './ConfigDialog';
import { PreviewDialog } from './PreviewDialog';
import '../../../crud/crud.css';
import '../tools.css';

/**
 * 系统工具 › 代码生成 (spec §2): the tables of the database (search by name, paging), the generator's
 * configuration dialog, and per table the column settings (an editable table) and the generated files —
 * a preview with one tab per file, and the zip download. The server generates; nothing is written to its
 * source tree.
 */

export default function GeneratorPage() {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [paging, setPaging] = useState({ page: 0, size: 10 });
  const [columnsOf, setColumnsOf] = useState<string | null>(null);
  const [previewOf, setPreviewOf] = useState<{ table: string; columns?: ColumnRow[] } | null>(null);
  const [config, setConfig] = useState(false);
  const q = useContractQuery(listGeneratorTables, { query: { name, page: paging.page, size: paging.size } });
  const runSearch = () => {
    setName(search.trim());
    setPaging((p) => ({ ...p, page: 0 }));
  };
  const download = (table: string) => downloadContract(generateCode, { query: { tableName: table }, body: [] }).then(() => notify.success(t('generator.generated')));
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
          {hasPermission(contractCodes(generateCode)) && (
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
