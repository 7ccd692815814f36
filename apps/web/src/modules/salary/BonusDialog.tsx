import { SALARY_BONUS_MAX_YUAN, salaryResource } from '@app/shared/resources/salary';
import { Alert, Form, InputNumber, Modal, Radio } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Row, useResourceMutation } from '../../crud';
import { type RowUpdateOf, updateRowOf } from '../../crud/resourceClient';

/**
 * 全年一次性奖金 of one salary row (issue 10 item 7): the amount and whether it is taxed on its own (the default,
 * allowed once per tax year until 2027-12) or merged into the month's wages. Saving recalculates the row on the
 * server, which refuses a second separate bonus in the year with a message naming the month that used it.
 */
export function BonusDialog({ row, onClose, onSaved }: { row: Row | null; onClose: () => void; onSaved?: () => void }) {
  const { t } = useTranslation('salary');
  const [bonus, setBonus] = useState<number | null>(null);
  const [merged, setMerged] = useState(false);

  useEffect(() => {
    if (!row) return;
    setBonus(row.bonus == null ? null : Number(row.bonus));
    setMerged(row.bonusMerged === true);
  }, [row]);

  // the row is recalculated on the server: the month's rows and its summary refresh (useResourceMutation)
  const save = useResourceMutation<unknown, RowUpdateOf<typeof salaryResource>>(salaryResource, {
    mutationFn: (body) => updateRowOf(salaryResource, body),
    success: t('saved'),
    onSuccess: () => {
      onSaved?.();
      onClose();
    },
  });

  return (
    <Modal
      open={row !== null}
      title={t('bonus.title', { name: row?.staffName ?? '' })}
      onCancel={onClose}
      onOk={() => row && save.mutate({ id: Number(row.id), bonus: Number(bonus ?? 0), bonusMerged: merged })}
      okText={t('save')}
      cancelText={t('cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="salary-bonus-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('bonus.amount')}>
          <InputNumber
            style={{ width: '100%' }}
            min={0}
            max={SALARY_BONUS_MAX_YUAN}
            precision={2}
            value={bonus}
            onChange={(v) => setBonus(v === null ? null : Number(v))}
            data-testid="salary-bonus-amount"
          />
        </Form.Item>
        <Form.Item label={t('bonus.method')}>
          <Radio.Group value={merged} onChange={(e) => setMerged(e.target.value)} data-testid="salary-bonus-method">
            <Radio value={false}>{t('bonus.separate')}</Radio>
            <Radio value={true}>{t('bonus.merged')}</Radio>
          </Radio.Group>
        </Form.Item>
      </Form>
      <Alert type="info" showIcon title={t('bonus.hint')} />
    </Modal>
  );
}
