import { payrollUnmatchedInputs, type UnmatchedInput, type UnmatchedReason } from '@app/shared/contracts/payrollInputs';
import type { ResourceDef } from '@app/shared/resource';
import { WarningOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Input, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDicts } from '../../../app/dict';
import { callContract } from '../../../app/contractClient';
import { type FieldOverride, ResourceForm } from '../../../crud/CrudDialog';
import { dictNames } from '../../../crud/fields';
import { readRowOf } from '../../../crud/resourceClient';

/**
 * 无法匹配 (findings U1, U7): the rows of one payroll input screen that no salary row reads — saved under a client's
 * name, with an ID card nobody has, or for a person of another agent or company — each with its reason and an
 * edit link (the screen's own dialog, with the same pickers). contracts/payrollInputs.ts payrollUnmatchedInputs.
 */

export type { UnmatchedReason };
export type UnmatchedRow = UnmatchedInput;

interface Props {
  def: ResourceDef;
  overrides: Record<string, FieldOverride>;
}

/** Wide enough for the six columns with the reason in full (antd's "large" is 736 px), never wider than the screen. */
const DRAWER_WIDTH = 'min(960px, 100vw)';

const queryKey = (table: string, month: string) => ['payroll', 'unmatchedInputs', table, month];

/** The toolbar button (with the count when there are any) and its drawer. */
export function UnmatchedInputsButton({ def, overrides }: Props) {
  const { t } = useTranslation('taxInputs');
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState('');
  const validMonth = /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : '';
  const list = useQuery({
    queryKey: queryKey(def.name, validMonth),
    queryFn: () => callContract(payrollUnmatchedInputs, { query: { table: def.name as UnmatchedInput['table'], month: validMonth || undefined } }),
  });
  const total = list.data?.totalElements ?? 0;
  const [editing, setEditing] = useState<Record<string, unknown> | null>(null);
  const client = useQueryClient();
  // the edit dialog's choice fields (住房租金城市类别...) need their dictionaries, as on the screen's own dialog
  const dicts = useDicts(useMemo(() => dictNames(def.fields), [def]));

  const edit = async (row: UnmatchedRow) => {
    setEditing(await readRowOf(def, row.id));
  };

  return (
    <>
      <Button icon={<WarningOutlined />} danger={total > 0} onClick={() => {
          setOpen(true);
          void list.refetch();
        }}
        data-testid="unmatched-button">
        {t('unmatched')}
        {total > 0 ? ` (${total})` : ''}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('unmatchedTitle')} size={DRAWER_WIDTH} data-testid="unmatched-drawer">
        <Alert type={total > 0 ? 'warning' : 'success'} showIcon title={total > 0 ? t('unmatchedHint', { count: total }) : t('allMatched')} style={{ marginBottom: 12 }} />
        <Input
          value={month}
          onChange={(e) => setMonth(e.target.value.trim())}
          placeholder={t('monthFilter')}
          allowClear
          style={{ width: 180, marginBottom: 12 }}
          data-testid="unmatched-month"
        />
        <Table<UnmatchedRow>
          rowKey="id"
          size="small"
          loading={list.isFetching}
          dataSource={list.data?.content ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: 850 }}
          columns={[
            { title: t('col.name'), dataIndex: 'name', width: 90 },
            { title: t('col.idCard'), dataIndex: 'idCard', width: 180 },
            { title: def.name === 'accountsStaffExtra' ? t('col.company') : t('col.agent'), dataIndex: def.name === 'accountsStaffExtra' ? 'companyName' : 'agent', width: 180 },
            { title: t('col.month'), dataIndex: 'month', width: 90 },
            {
              title: t('col.reason'),
              dataIndex: 'reason',
              width: 240,
              // the reason is what the clerk acts on: it wraps rather than being cut off under the fixed 操作 column
              render: (r: UnmatchedReason) => (
                <Tag color="orange" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }} data-testid="unmatched-reason">
                  {t(`reason.${r}`)}
                </Tag>
              ),
            },
            {
              title: t('col.action'),
              key: 'action',
              width: 70,
              fixed: 'right',
              render: (_: unknown, row) => (
                <Button type="link" size="small" onClick={() => void edit(row)}>
                  {t('edit')}
                </Button>
              ),
            },
          ]}
        />
      </Drawer>
      <ResourceForm
        def={def}
        open={editing !== null}
        mode="edit"
        record={editing}
        dicts={dicts}
        overrides={overrides}
        onClose={() => setEditing(null)}
        onSaved={() => void client.invalidateQueries({ queryKey: ['payroll', 'unmatchedInputs'] })}
      />
    </>
  );
}
