import { Alert, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type AdjustPerson, type AdjustPreview, type BackItem, SI_INSURANCES, type SiInsurance } from '@app/shared/contracts/siAdjust';
import { formatMoney } from '../../crud/format';

/** The 调基 wizard's tables: old → new bases per person and insurance, people left out, the 补差 items created. */

export function PreviewTable({ preview, mobile }: { preview: AdjustPreview; mobile: boolean }) {
  const { t } = useTranslation('social');
  const used = SI_INSURANCES.filter((ins) => preview.people.some((p) => p.items.some((i) => i.insurance === ins)));
  const cell = (p: AdjustPerson, ins: SiInsurance) => {
    const i = p.items.find((x) => x.insurance === ins);
    if (!i) return <Typography.Text type="secondary">{t('siAdjust.unchanged')}</Typography.Text>;
    const changed = i.old !== i.new;
    return (
      <div data-testid={`si-adjust-cell-${p.staffId}-${ins}`} style={{ whiteSpace: 'nowrap', lineHeight: 1.4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {i.old === null ? '—' : formatMoney(i.old)} →
        </Typography.Text>
        <div>
          <Typography.Text strong={changed}>{formatMoney(i.new)}</Typography.Text>
          {i.clamp && (
            <Tooltip title={t('siAdjust.clampTip', { requested: formatMoney(i.requested) })}>
              <Tag color={i.clamp === 'floor' ? 'orange' : 'red'} style={{ marginInlineStart: 4, marginInlineEnd: 0 }}>
                {t(`siAdjust.clamp.${i.clamp}`)}
              </Tag>
            </Tooltip>
          )}
        </div>
      </div>
    );
  };
  const backOf = (p: AdjustPerson, side: 'self' | 'company') => p.backPay.reduce((a, b) => a + Math.round(b[side] * 100), 0) / 100;
  return (
    <Table<AdjustPerson>
      size="small"
      rowKey="staffId"
      data-testid="si-adjust-preview-table"
      dataSource={preview.people}
      scroll={{ x: 460 + used.length * 118 }}
      pagination={{ defaultPageSize: 10, showSizeChanger: true, showTotal: (n) => t('siAdjust.total', { count: n }), simple: mobile }}
      columns={[
        { key: 'staffName', dataIndex: 'staffName', title: t('siAdjust.staffName'), width: 80, fixed: mobile ? undefined : 'left' },
        { key: 'idCard', dataIndex: 'idCard', title: t('siAdjust.idCard'), width: 160 },
        ...(preview.people.some((p) => p.average !== null)
          ? [
              {
                key: 'average',
                title: t('siAdjust.average'),
                width: 110,
                align: 'right' as const,
                render: (_: unknown, p: AdjustPerson) =>
                  p.average === null ? '' : (
                    <div style={{ lineHeight: 1.4 }}>
                      {formatMoney(p.average)}
                      <div>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t('siAdjust.months', { count: p.months })}
                        </Typography.Text>
                      </div>
                    </div>
                  ),
              },
            ]
          : []),
        ...used.map((ins) => ({ key: ins, title: t(`siAdjust.insurance.${ins}`), width: 118, render: (_: unknown, p: AdjustPerson) => cell(p, ins) })),
        {
          key: 'back',
          title: t('siAdjust.backBoth'),
          width: 110,
          align: 'right' as const,
          render: (_: unknown, p: AdjustPerson) => (
            <div style={{ lineHeight: 1.4, whiteSpace: 'nowrap' }} data-testid={`si-adjust-back-${p.staffId}`}>
              {formatMoney(backOf(p, 'self'))}
              <div>{formatMoney(backOf(p, 'company'))}</div>
            </div>
          ),
        },
      ]}
    />
  );
}

export function SkippedList({ skipped }: { skipped: AdjustPreview['skipped'] }) {
  const { t } = useTranslation('social');
  if (!skipped.length) return null;
  const shown = skipped.slice(0, 20).map((s) => `${s.staffName ?? ''}（${s.idCard}）${t(`siAdjust.skip.${s.code}`, { detail: s.detail ?? '' })}`);
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="si-adjust-skipped"
      title={t('siAdjust.skippedTitle', { count: skipped.length })}
      description={`${shown.join('；')}${skipped.length > 20 ? '…' : ''}`}
    />
  );
}

export function BackItemsTable({ items, loading }: { items: BackItem[]; loading: boolean }) {
  const { t } = useTranslation('social');
  return (
    <Table<BackItem>
      size="small"
      rowKey="id"
      loading={loading}
      data-testid="si-adjust-items"
      dataSource={items}
      scroll={{ x: 760 }}
      pagination={{ defaultPageSize: 10, showTotal: (n) => t('siAdjust.itemsTotal', { count: n }) }}
      columns={[
        { key: 'staffName', dataIndex: 'staffName', title: t('siAdjust.staffName'), width: 90 },
        { key: 'insurance', dataIndex: 'insurance', title: t('siAdjust.insuranceCol'), width: 100, render: (v: SiInsurance) => t(`siAdjust.insurance.${v}`) },
        { key: 'referMonth', dataIndex: 'referMonth', title: t('siAdjust.referMonth'), width: 90 },
        { key: 'targetMonth', dataIndex: 'targetMonth', title: t('siAdjust.targetMonth'), width: 90 },
        { key: 'self', dataIndex: 'self', title: t('siAdjust.itemSelf'), width: 110, align: 'right', render: (v: number) => formatMoney(v) },
        { key: 'company', dataIndex: 'company', title: t('siAdjust.itemCompany'), width: 110, align: 'right', render: (v: number) => formatMoney(v) },
        { key: 'source', dataIndex: 'source', title: t('siAdjust.source'), width: 90, render: (v: string) => t(`siAdjust.sources.${v}`) },
      ]}
    />
  );
}
