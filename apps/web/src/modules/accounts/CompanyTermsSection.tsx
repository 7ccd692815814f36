import { PlusOutlined } from '@ant-design/icons';
import { permissionCodes } from '@app/shared/resource';
import { settlementTermsResource } from '@app/shared/resources/settlementTerms';
import { Alert, Button, Divider, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { useDicts } from '../../app/dict';
import { type DialogMode, deleteRows, dictNames, formatMoney, formatRatio, formFields, formValuesToBody, initialFormValues, labelOf, renderValue, ResourceForm, type Row, useResourceList, useResourceMutation } from '../../crud';
import { DeleteRowButton, EditRowButton } from '../../crud/RowActions';

/**
 * 单位管理's dialog › 结算条款 (issue 22 item 1): the company's dated settlement terms, newest first, with a new
 * version, an edit and a delete (asked first) through the settlementTerms resource. The terms in force in a
 * statement's month are the latest version not after it, so a change of contract is a new version, not an edit.
 */

const def = settlementTermsResource;
const field = (name: string) => def.fields.find((f) => f.name === name) as (typeof def.fields)[number];
const PCT_FEE = new Set(['PCT_WAGE', 'PCT_TOTAL']);

/** The month a new version starts: this month, or the one after the newest version when that is later. */
export function nextValidFrom(rows: Row[], today = dayjs()): string {
  const newest = rows.map((r) => String(r.validFrom ?? '')).sort().at(-1);
  const current = today.format('YYYY-MM');
  if (!newest || newest < current) return current;
  return dayjs(`${newest}-01`).add(1, 'month').format('YYYY-MM');
}

export function CompanyTermsSection({ companyId }: { companyId?: number }) {
  const { t } = useTranslation('accounts');
  const { hasPermission } = useAuth();
  const dicts = useDicts(useMemo(() => dictNames(def.fields), []));
  const can = {
    select: hasPermission(permissionCodes(def, 'list')),
    create: hasPermission(permissionCodes(def, 'create')),
    edit: hasPermission(permissionCodes(def, 'edit')),
    delete: hasPermission(permissionCodes(def, 'delete')),
  };
  const list = useResourceList(def, { baseParams: { companyId }, pageSize: 50, defaultSort: [['validFrom', 'desc']], enabled: companyId !== undefined && can.select });
  const [dialog, setDialog] = useState<{ mode: DialogMode; record?: Row } | null>(null);
  const remove = useResourceMutation<void, Row>(def, { mutationFn: (row) => deleteRows(def, [row.id]), success: t('terms.deleted') });

  const title = (
    <Divider titlePlacement="start" plain className="crud-form-section-title">
      {t('terms.title')}
    </Divider>
  );
  if (!can.select) return null;
  if (companyId === undefined) {
    return (
      <div data-testid="company-terms">
        {title}
        <Typography.Text type="secondary" data-testid="company-terms-after-save">
          {t('terms.afterSave')}
        </Typography.Text>
      </div>
    );
  }

  const show = (name: string, row: Row) => renderValue(field(name), row[name], row, dicts);
  const fee = (r: Row) => `${show('feeMode', r)} ${PCT_FEE.has(String(r.feeMode)) ? formatRatio(r.feeRate) : formatMoney(r.feeAmount)}`;
  const disabled = (r: Row) => {
    if (r.disabledShareMode === 'PER_HEAD') return `${show('disabledShareMode', r)} ${formatMoney(r.disabledShareAmount)}`;
    if (r.disabledShareMode === 'PCT_WAGE') return `${show('disabledShareMode', r)} ${formatRatio(r.disabledShareRate)}`;
    return show('disabledShareMode', r);
  };
  const newest = list.rows[0];
  const initialValues = dialog?.mode === 'create' ? { ...initialFormValues(def, newest ?? null), validFrom: nextValidFrom(list.rows) } : undefined;

  return (
    <div data-testid="company-terms">
      {title}
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          {can.create ? (
            <Button icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'create' })} data-testid="company-terms-add">
              {t('terms.addVersion')}
            </Button>
          ) : null}
          <Typography.Text type="secondary">{t('terms.hint')}</Typography.Text>
        </Space>
        {list.rows.length === 0 && !list.loading ? <Alert type="warning" showIcon message={t('terms.none')} data-testid="company-terms-none" /> : null}
        <Table<Row>
          size="small"
          rowKey="id"
          loading={list.loading}
          dataSource={list.rows}
          pagination={list.total > list.size ? { current: list.page + 1, pageSize: list.size, total: list.total, onChange: (p) => list.setPage(p - 1) } : false}
          scroll={{ x: 1180 }}
          data-testid="company-terms-table"
          columns={[
            { key: 'validFrom', title: labelOf(def.name, field('validFrom')), width: 90, fixed: 'left', render: (_, r) => (r.id === newest?.id ? <Typography.Text strong>{r.validFrom}</Typography.Text> : r.validFrom) },
            { key: 'fee', title: t('terms.fee'), width: 210, render: (_, r) => fee(r) },
            { key: 'feeTaxMode', title: labelOf(def.name, field('feeTaxMode')), width: 130, render: (_, r) => show('feeTaxMode', r) },
            { key: 'siBillingLag', title: labelOf(def.name, field('siBillingLag')), width: 110, render: (_, r) => show('siBillingLag', r) },
            { key: 'disabledShare', title: labelOf(def.name, field('disabledShareMode')), width: 170, render: (_, r) => disabled(r) },
            { key: 'unionFeeRatio', title: labelOf(def.name, field('unionFeeRatio')), width: 90, align: 'right', render: (_, r) => formatRatio(r.unionFeeRatio ?? 0) },
            { key: 'perHeadItems', title: labelOf(def.name, field('perHeadItems')), width: 200, render: (_, r) => r.perHeadItems || '-' },
            {
              key: 'actions',
              title: t('terms.actions'),
              width: 150,
              fixed: 'right',
              render: (_, r) => (
                <Space size={0}>
                  {can.edit ? <EditRowButton ns="crud" onClick={() => setDialog({ mode: 'edit', record: r })} testId={`company-terms-edit-${r.validFrom}`} /> : null}
                  {can.delete ? <DeleteRowButton ns="crud" onConfirm={() => remove.mutate(r)} testId={`company-terms-delete-${r.validFrom}`} /> : null}
                </Space>
              ),
            },
          ]}
        />
      </Space>
      {can.create || can.edit ? (
        <ResourceForm
          def={def}
          dicts={dicts}
          open={dialog !== null}
          mode={dialog?.mode ?? 'create'}
          record={dialog?.record}
          initialValues={initialValues}
          title={dialog?.mode === 'edit' ? t('terms.editTitle', { month: dialog.record?.validFrom }) : t('terms.addTitle')}
          overrides={{ companyId: { hidden: true } }}
          toBody={(values, mode) => ({ ...formValuesToBody(formFields(def), values), companyId, ...(mode === 'edit' ? { id: dialog?.record?.id } : {}) })}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </div>
  );
}
