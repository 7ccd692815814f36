import { StaffScreen } from './StaffScreen';

/** 合同到期提醒 (accounts/contractWarn/index): staff whose contract reminder is 已提醒, per company. */
export default function ContractWarnPage() {
  return <StaffScreen variant="contractWarn" />;
}
