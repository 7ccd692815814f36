import { StaffScreen } from './StaffScreen';

/** 员工管理 (accounts/staff/index). */
export default function StaffPage() {
  return <StaffScreen variant="staff" />;
}
