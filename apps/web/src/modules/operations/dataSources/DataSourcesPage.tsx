import { EyeOutlined } from '@ant-design/icons';
import { deleteDataOrigin, listDataOrigins } from '@app/shared/contracts/operations/dataSources';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { DeleteRowButton, EditRowButton } from '../../../crud/RowActions';
import { SearchItem } from '../../../crud/SearchBar';
import { ListToolbar, usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import DataSourceDialog from './DataSourceDialog';
import DataSourceDrawer from './DataSourceDrawer';
import { DATA_SOURCE_CODES, DATA_SOURCE_TYPES, type DataSourceRow } from './types';

const TYPE_COLORS: Record<string, string> = { sql: 'geekblue', csv: 'green', xls: 'cyan', custom: 'purple' };

/**
 * 数据管理 › 数据源管理 (spec §2, §4): sources 10 a page (pages from 1), filtered by name and type; 详情 opens the fields
 * and a 10-row preview; 新增/编辑 with fields following the type; 删除 after confirmation.
 */
export default function DataSourcesPage() {
  const { t } = useTranslation('dataSources');
  const { hasPermission } = useAuth();
  const [dialog, setDialog] = useState<{ open: boolean; editing: DataSourceRow | null }>({ open: false, editing: null });
  const [detailId, setDetailId] = useState<number | null>(null);

  const list = usePagedList<DataSourceRow, { dataName: string; type: string | undefined }>({
    key: 'dataSources',
    filters: { dataName: '', type: undefined },
    load: ({ dataName, type }, page, size) => callContract(listDataOrigins, { query: { dataName: dataName || undefined, type, pageNumber: page + 1, pageSize: size } }),
    showTotal: (total) => t('total', { total }),
  });
  const remove = useMutation({
    mutationFn: (row: DataSourceRow) => callContract(deleteDataOrigin, { body: { id: row.id } }),
    onSuccess: () => {
      notify.success(t('msg.deleted'), undefined, 2);
      return list.afterDelete();
    },
  });
  const canEdit = hasPermission(DATA_SOURCE_CODES.edit);
  const canDelete = hasPermission(contractCodes(deleteDataOrigin));
  const where = (r: DataSourceRow) => {
    if (r.type === 'sql') return `${r.dbKind ?? ''} ${r.dataBaseSite ?? ''}:${r.dataBasePort ?? ''}/${r.dataBaseName ?? ''}`;
    if (r.type === 'custom') return r.customDatabaseName ?? '';
    return r.fileName ?? '';
  };
  const columns: ColumnsType<DataSourceRow> = [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    { key: 'dataName', dataIndex: 'dataName', title: t('field.dataName'), width: 180 },
    { key: 'type', dataIndex: 'type', title: t('field.type'), width: 100, render: (v: string) => <Tag color={TYPE_COLORS[v]}>{t(`type.${v}`)}</Tag> },
    { key: 'where', title: t('field.where'), ellipsis: true, render: (_, r) => where(r) },
    { key: 'characterEncoding', dataIndex: 'characterEncoding', title: t('field.characterEncoding'), width: 100 },
    { key: 'fields', title: t('field.fieldCount'), width: 80, render: (_, r) => r.tableData.length },
    { key: 'rowCount', dataIndex: 'rowCount', title: t('field.rowCount'), width: 90, render: (v: number | null) => v ?? '-' },
    { key: 'createBy', dataIndex: 'createBy', title: t('field.createBy'), width: 100 },
    { key: 'updateTime', dataIndex: 'updateTime', title: t('field.updateTime'), width: 165, render: (v: string | null) => formatDateTime(v) },
    {
      key: 'actions',
      title: t('actions'),
      width: 220,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0} wrap={false}>
          <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => setDetailId(r.id)} data-testid="datasource-details">
            {t('details')}
          </Button>
          {canEdit ? <EditRowButton ns="dataSources" onClick={() => setDialog({ open: true, editing: r })} /> : null}
          {canDelete ? <DeleteRowButton ns="dataSources" onConfirm={() => remove.mutate(r)} testId="datasource-delete" /> : null}
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" className="crud-page" data-testid="datasources-page">
      <ListToolbar
        ns="dataSources"
        search={{ label: t('field.dataName'), placeholder: t('searchName'), onSearch: (dataName) => list.filter({ dataName }), testId: 'datasources-search' }}
        filters={
          <SearchItem label={t('field.type')}>
            <Select
              allowClear
              placeholder={t('field.type')}
              value={list.filters.type}
              onChange={(type) => list.filter({ type })}
              style={{ width: 140 }}
              options={DATA_SOURCE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
            />
          </SearchItem>
        }
        onAdd={hasPermission(DATA_SOURCE_CODES.create) ? () => setDialog({ open: true, editing: null }) : undefined}
        addTestId="datasources-add"
        onRefresh={list.refresh}
      />
      <Table<DataSourceRow> {...list.tableProps} size="middle" columns={columns} scroll={{ x: 1300 }} data-testid="datasources-table" />
      <DataSourceDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} />
      <DataSourceDrawer id={detailId} onClose={() => setDetailId(null)} />
    </Card>
  );
}
