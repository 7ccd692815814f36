import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SettlementState } from '@app/shared/contracts/settlement';

/** A statement's state as a coloured tag, with 需重开 beside it when the salary month was reopened after sending. */
export const STATE_COLORS: Record<SettlementState, string> = { DRAFT: 'default', SENT: 'blue', CONFIRMED: 'cyan', DISPUTED: 'red', INVOICED: 'purple', PARTIAL: 'orange', SETTLED: 'green' };

export function StateTag({ state, needsReopen }: { state: SettlementState; needsReopen?: boolean }) {
  const { t } = useTranslation('settlement');
  return (
    <Space size={4}>
      <Tag color={STATE_COLORS[state]} data-testid={`state-${state}`}>
        {t(`state.${state}`)}
      </Tag>
      {needsReopen ? <Tag color="error">{t('needsReopen')}</Tag> : null}
    </Space>
  );
}
