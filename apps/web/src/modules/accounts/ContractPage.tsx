import { StaffScreen } from './StaffScreen';

/** 合同管理 (accounts/contract/index): the staff list with contract filters and columns. */
export default function ContractPage() {
  return <StaffScreen variant="contract" />;
}
