import { EyeOutlined } from '@ant-design/icons';
import { GENERATABLE_KINDS, type GeneratorColumnRow as ColumnRow, generateCode, generatorColumns, saveGeneratorColumns } from '@app/shared/contracts/generator';
import { Button, Checkbox, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../app/auth';
import { callContract, contractCodes, useContractQuery } from '../../../app/contractClient';
import { useApiMutation } from '../../../crud/mutations';
import { columnPayload, GENERATOR_READS } from './generatorModel';

/** The column settings of one table as an editable table; saved with the saveGeneratorColumns contract. */
export function ColumnDialog({ table, onClose, onPreview }: { table: string; onClose: () => void; onPreview: (rows: ColumnRow[]) => void }) {
  const { t } = useTranslation('tools');
  const { hasPermission } = useAuth();
  const canEdit = hasPermission(contractCodes(saveGeneratorColumns));
  const [rows, setRows] = useState<ColumnRow[] | null>(null);
  const q = useContractQuery(generatorColumns, { query: { tableName: table } });
  useEffect(() => {
    if (q.data) setRows(q.data.content.map((r) => ({ ...r })));
  }, [q.data]);
  const edit = (name: string, patch: Partial<ColumnRow>) => setRows((rs) => rs?.map((r) => (r.columnName === name ? { ...r, ...patch } : r)) ?? rs);
  // the table's columns and previews are read again after saving
  const saveColumns = useApiMutation<unknown, ColumnRow[]>({
    mutationFn: (cols) => callContract(saveGeneratorColumns, { query: { tableName: table }, body: columnPayload(cols) }),
    success: t('generator.saved'),
    invalidate: GENERATOR_READS,
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
          options={GENERATABLE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
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
        hasPermission(contractCodes(generateCode)) && (
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
