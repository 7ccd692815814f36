import { createCustomDatasource, deleteCustomDatasource, listCustomDatasources, listDatasets, updateCustomDatasource } from '@app/shared/contracts/operations/dataSources';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Checkbox, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { notify } from '../../../app/feedback';
import { callContract, contractCodes } from '../../../app/contractClient';
import { formatDateTime } from '../../../crud/format';
import { DeleteRowButton, EditRowButton } from '../../../crud/RowActions';
import { ListToolbar, usePagedList } from '../../../crud/usePagedList';
import '../../../crud/crud.css';
import { CHARACTER_ENCODINGS, type CustomDatasourceRow, DATA_SOURCE_CODES } from './types';

interface FormValues {
  name: string;
  dataset: string;
  characterEncoding: string;
  fields: string[];
}

/**
 * 数据管理 › 自定义数据源 (spec §2): projections of our own datasets (员工花名册, 月度工资, 工资条, 用工单位, HR records).
 * A task reading one sees only what its creator may see (their company scope and the dataset's list permission).
 */
export default function CustomDatasourcePage() {
  const { t } = useTranslation('dataSources');
  const { hasPermission } = useAuth();
  const [dialog, setDialog] = useState<{ open: boolean; editing: CustomDatasourceRow | null }>({ open: false, editing: null });

  const list = usePagedList<CustomDatasourceRow, { name: string }>({
    key: 'customDatasource',
    filters: { name: '' },
    load: ({ name }, page, size) => callContract(listCustomDatasources, { query: { name: name || undefined, pageNumber: page + 1, pageSize: size } }),
    showTotal: (total) => t('total', { total }),
  });
  const remove = useMutation({
    mutationFn: (row: CustomDatasourceRow) => callContract(deleteCustomDatasource, { body: { id: row.id } }),
    onSuccess: () => {
      notify.success(t('msg.deleted'), undefined, 2);
      return list.afterDelete();
    },
  });
  const canEdit = hasPermission(DATA_SOURCE_CODES.edit);
  const canDelete = hasPermission(contractCodes(deleteCustomDatasource));

  const columns: ColumnsType<CustomDatasourceRow> = [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    { key: 'name', dataIndex: 'name', title: t('custom.name'), width: 180 },
    { key: 'datasetName', dataIndex: 'datasetName', title: t('custom.dataset'), width: 120 },
    { key: 'characterEncoding', dataIndex: 'characterEncoding', title: t('field.characterEncoding'), width: 100 },
    {
      key: 'tableData',
      dataIndex: 'tableData',
      title: t('custom.fields'),
      render: (fs: CustomDatasourceRow['tableData']) => (
        <Space size={[4, 4]} wrap>
          {fs.map((f) => (
            <Tag key={f.fieldName}>{f.fieldName}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'updateTime', dataIndex: 'updateTime', title: t('field.updateTime'), width: 165, render: (v: string | null) => formatDateTime(v) },
  ];
  if (canEdit || canDelete)
    columns.push({
      key: 'actions',
      title: t('actions'),
      width: 160,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {canEdit ? <EditRowButton ns="dataSources" onClick={() => setDialog({ open: true, editing: r })} /> : null}
          {canDelete ? <DeleteRowButton ns="dataSources" onConfirm={() => remove.mutate(r)} /> : null}
        </Space>
      ),
    });

  return (
    <Card variant="borderless" className="crud-page" data-testid="custom-datasource-page">
      <ListToolbar
        ns="dataSources"
        search={{ label: t('custom.name'), placeholder: t('custom.searchName'), onSearch: (name) => list.filter({ name }) }}
        onAdd={hasPermission(contractCodes(createCustomDatasource)) ? () => setDialog({ open: true, editing: null }) : undefined}
        addTestId="custom-add"
        onRefresh={list.refresh}
      />
      <Table<CustomDatasourceRow> {...list.tableProps} size="middle" columns={columns} scroll={{ x: 1000 }} data-testid="custom-table" />
      <CustomDialog open={dialog.open} editing={dialog.editing} onClose={() => setDialog({ open: false, editing: null })} />
    </Card>
  );
}

function CustomDialog({ open, editing, onClose }: { open: boolean; editing: CustomDatasourceRow | null; onClose: () => void }) {
  const { t } = useTranslation('dataSources');
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const datasetKey = Form.useWatch('dataset', form);
  const datasets = useQuery({ queryKey: ['customDatasource', 'datasets'], queryFn: () => callContract(listDatasets, {}), enabled: open, staleTime: Number.POSITIVE_INFINITY });
  const dataset = datasets.data?.find((d) => d.key === datasetKey);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({ name: editing.name, dataset: editing.dataset, characterEncoding: editing.characterEncoding, fields: editing.tableData.map((f) => f.field ?? f.fieldName) });
    else form.setFieldsValue({ characterEncoding: 'UTF-8', fields: [] });
  }, [open, editing, form]);

  const save = useMutation({
    mutationFn: (v: FormValues) =>
      callContract(editing ? updateCustomDatasource : createCustomDatasource, {
        body: {
          id: editing?.id,
          name: v.name,
          dataset: v.dataset,
          characterEncoding: v.characterEncoding,
          tableData: v.fields.map((field) => ({ field })),
        },
      }),
    onSuccess: () => {
      notify.success(editing ? t('msg.updated') : t('msg.created'), undefined, 2);
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['customDatasource'] });
    },
  });

  return (
    <Modal
      open={open}
      title={editing ? t('custom.editTitle') : t('custom.addTitle')}
      width={750}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((v) => save.mutate(v))}
      okText={t('ok')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form form={form} labelCol={{ span: 4 }} wrapperCol={{ span: 19 }}>
        <Form.Item name="name" label={t('custom.name')} rules={[{ required: true, message: t('rule.dataName') }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="dataset" label={t('custom.dataset')} rules={[{ required: true, message: t('rule.dataset') }]}>
          <Select
            loading={datasets.isLoading}
            options={(datasets.data ?? []).map((d) => ({ value: d.key, label: d.label }))}
            onChange={(key: string) => {
              const d = datasets.data?.find((x) => x.key === key);
              // a useful start: the first plain fields (not the id or a reference's raw id)
              form.setFieldValue(
                'fields',
                d
                  ? d.fields
                      .filter((f) => f.field !== 'id' && f.type !== 'ref')
                      .slice(0, 8)
                      .map((f) => f.field)
                  : [],
              );
            }}
          />
        </Form.Item>
        <Form.Item name="characterEncoding" label={t('field.characterEncoding')} rules={[{ required: true, message: t('rule.characterEncoding') }]}>
          <Select options={CHARACTER_ENCODINGS.map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        <Form.Item name="fields" label={t('custom.fields')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.fields') }]} extra={t('custom.scopeHint')}>
          <Checkbox.Group style={{ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', rowGap: 4, maxHeight: 320, overflowY: 'auto' }} options={(dataset?.fields ?? []).map((f) => ({ value: f.field, label: f.fieldName }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
