import { getSettlementMonthSummary, SETTLEMENT_CODES } from '@app/shared/contracts/settlement';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../app/auth';
import { useContractQuery } from '../../app/contractClient';
import { formatMoney } from '../../crud/format';

/**
 * 首页 › 本月工资's month close (issue 22): one line under the salary states with what the month's 结算单 still need
 * (待生成 / 待发送 / 待客户确认 / 有异议 / 需重开) and the invoiced receivables not yet paid; each opens 结算单 or 应收台账.
 * Only counts that are not zero are shown; nothing at all without the settlement codes.
 */

const SETTLEMENT_PATH = '/salary/settlement';
const RECEIVABLES_PATH = '/salary/receivables';
const STEPS = [
  ['toGenerate', 'warning'],
  ['toSend', 'processing'],
  ['awaitingConfirmation', 'processing'],
  ['disputed', 'error'],
  ['needsReopen', 'error'],
] as const;

export default function SettlementMonthLine({ month }: { month?: string }) {
  const { t } = useTranslation('home');
  const { hasPermission } = useAuth();
  const allowed = hasPermission([...SETTLEMENT_CODES.select]);
  const q = useContractQuery(getSettlementMonthSummary, { query: month ? { month } : {} }, { enabled: allowed, refetchInterval: 60_000 });
  if (!allowed || !q.data) return null;
  const s = q.data;
  const open = STEPS.filter(([k]) => s[k] > 0);
  return (
    <Space size={[4, 4]} wrap style={{ marginBottom: 8 }} data-testid="home-settlement">
      <Typography.Text type="secondary">{t('settlement.title')}</Typography.Text>
      {open.length === 0 && s.unpaid === 0 ? <Tag color="success">{t('settlement.allDone')}</Tag> : null}
      {open.map(([k, color]) => (
        <Link key={k} to={SETTLEMENT_PATH} data-testid={`home-settlement-${k}`}>
          <Tag color={color}>{t(`settlement.${k}`, { count: s[k] })}</Tag>
        </Link>
      ))}
      {s.unpaid > 0 ? (
        <Link to={RECEIVABLES_PATH} data-testid="home-settlement-unpaid">
          <Tag color="orange">{t('settlement.unpaid', { count: s.unpaid, amount: formatMoney(s.unpaidAmount) })}</Tag>
        </Link>
      ) : null}
    </Space>
  );
}
