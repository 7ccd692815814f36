import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { deleteModel, listModels, setModelShelf } from '@app/shared/contracts/operations/models';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { SearchItem } from '../../../crud/SearchBar';
import { ListToolbar, usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import '../operations.css';
import { MODEL_CODES, type ModelRow, OFF_SHELF, ON_SHELF } from '../types';
import ModelDialog from './ModelDialog';

/** Spec §4 shelf rules: edit, 上架 and delete are disabled on shelf; 下架 is disabled off shelf. */
export const shelfButtons = (statu: number) => ({ edit: statu !== ON_SHELF, putOn: statu !== ON_SHELF, remove: statu !== ON_SHELF, takeOff: statu === ON_SHELF });

/**
 * 数据管理 › 模型管理 (spec §2, §4, §5): models 10 a page (pages from 1), searched by name and shelf state; 新增/编辑
 * with the parameter rows, 上架/下架 (one endpoint, the target state sent), 删除 after confirmation.
 */
export default function ModelsPage() {
  const { t } = useTranslation('models');
  const { hasPermission } = useAuth();
  const [dialog, setDialog] = useState<{ open: boolean; editing: ModelRow | null }>({ open: false, editing: null });
  // pages count from 1 on this endpoint (spec §9)
  const list = usePagedList<ModelRow, { modelName: string; statu: number | undefined }>({
    key: 'models',
    filters: { modelName: '', statu: undefined },
    load: (f, page, size) => callContract(listModels, { query: { modelName: f.modelName || undefined, statu: f.statu, pageNumber: page + 1, pageSize: size } }),
    showTotal: (total) => t('total', { total }),
  });
  const refresh = list.refresh;
  const shelf = useMutation({
    mutationFn: ({ row, target }: { row: ModelRow; target: typeof ON_SHELF | typeof OFF_SHELF }) => callContract(setModelShelf, { body: { id: row.id, statu: target } }),
    onSuccess: (r) => {
      notify.success(r.statu === ON_SHELF ? t('msg.onShelf') : t('msg.offShelf'));
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (row: ModelRow) => callContract(deleteModel, { body: { id: row.id } }),
    onSuccess: () => {
      notify.success(t('msg.deleted'));
      return list.afterDelete();
    },
  });
  const canEdit = hasPermission(contractCodes(setModelShelf));
  const canDelete = hasPermission(contractCodes(deleteModel));

  const columns: ColumnsType<ModelRow> = [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    {
      key: 'modelName',
      dataIndex: 'modelName',
      title: t('model.modelName'),
      width: 200,
      render: (v: string, r) => (
        <Space size={4}>
          <span>{v}</span>
          {r.builtin ? <Tag color="blue">{t('model.builtin')}</Tag> : null}
        </Space>
      ),
    },
    { key: 'fileType', dataIndex: 'fileType', title: t('model.fileType'), width: 90 },
    { key: 'site', dataIndex: 'site', title: t('model.site'), width: 240, ellipsis: true },
    {
      key: 'parameterInfo',
      dataIndex: 'parameterInfo',
      title: t('model.parameters'),
      render: (ps: ModelRow['parameterInfo']) => (
        <Space size={[4, 4]} wrap>
          {ps.map((p) => (
            <Tooltip key={p.parameterCode} title={`${p.parameterCode} · ${t(`paramType.${p.parameterType}`)}`}>
              <Tag>{p.parameterName}</Tag>
            </Tooltip>
          ))}
        </Space>
      ),
    },
    {
      key: 'statu',
      dataIndex: 'statu',
      title: t('model.statu'),
      width: 90,
      render: (s: number) => (
        <Tag color={s === ON_SHELF ? 'success' : 'default'} data-testid="model-statu">
          {s === ON_SHELF ? t('shelf.on') : t('shelf.off')}
        </Tag>
      ),
    },
    { key: 'updateTime', dataIndex: 'updateTime', title: t('task.updateTime'), width: 165, render: (v: string | null) => formatDateTime(v) },
  ];
  if (canEdit || canDelete)
    columns.push({
      key: 'actions',
      title: t('actions'),
      width: 280,
      fixed: 'right',
      render: (_, r) => {
        const b = shelfButtons(r.statu);
        return (
          <Space size={0} wrap={false}>
            {canEdit ? (
              <Button size="small" type="link" icon={<EditOutlined />} disabled={!b.edit} onClick={() => setDialog({ open: true, editing: r })} data-testid="model-edit">
                {t('edit')}
              </Button>
            ) : null}
            {canEdit ? (
              <Button size="small" type="link" icon={<ArrowUpOutlined />} disabled={!b.putOn} onClick={() => shelf.mutate({ row: r, target: ON_SHELF })} data-testid="model-on">
                {t('shelf.putOn')}
              </Button>
            ) : null}
            {canEdit ? (
              <Button size="small" type="link" icon={<ArrowDownOutlined />} disabled={!b.takeOff} onClick={() => shelf.mutate({ row: r, target: OFF_SHELF })} data-testid="model-off">
                {t('shelf.takeOff')}
              </Button>
            ) : null}
            {canDelete ? (
              <Popconfirm title={t('confirmDelete')} onConfirm={() => remove.mutate(r)} okText={t('ok')} cancelText={t('cancel')} disabled={!b.remove}>
                <Button size="small" type="link" danger icon={<DeleteOutlined />} disabled={!b.remove} data-testid="model-delete">
                  {t('delete')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        );
      },
    });

  return (
    <Card variant="borderless" className="crud-page" data-testid="models-page">
      <ListToolbar
        ns="models"
        search={{ label: t('model.modelName'), placeholder: t('model.searchName'), onSearch: (modelName) => list.filter({ modelName }), testId: 'models-search' }}
        filters={
          <SearchItem label={t('model.statu')}>
            <Select
              allowClear
              placeholder={t('model.statu')}
              value={list.filters.statu}
              onChange={(statu) => list.filter({ statu })}
              style={{ width: 120 }}
              options={[
                { value: ON_SHELF, label: t('shelf.on') },
                { value: OFF_SHELF, label: t('shelf.off') },
              ]}
            />
          </SearchItem>
        }
        onAdd={hasPermission(MODEL_CODES.create) ? () => setDialog({ open: true, editing: null }) : undefined}
        addTestId="models-add"
        onRefresh={refresh}
      />
      <Table<ModelRow> {...list.tableProps} size="middle" columns={columns} scroll={{ x: 1300 }} data-testid="models-table" />
      <ModelDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} />
    </Card>
  );
}
