import { staffExtraResource } from '@app/shared/resources/staffExtra';
import { ResourcePage } from '../../../crud';
import type { FieldOverride } from '../../../crud/CrudDialog';
import { StaffPicker } from './pickers';
import { UnmatchedInputsButton } from './UnmatchedInputs';

/**
 * 员工加班扣款: the person is chosen among the staff and brings name, company and phone (U7); the company is the
 * staff record's, shown but not chosen separately. Its 无法匹配 check lists older rows no salary row reads.
 */
const overrides: Record<string, FieldOverride> = {
  staffIdCard: { control: <StaffPicker fill={{ name: 'staffName', companyId: 'staffCompanyId', phone: 'phone' }} />, span: 24 },
  staffName: { disabled: true },
  staffCompanyId: { disabled: true },
};

export default function StaffExtraPage() {
  return <ResourcePage resource={staffExtraResource} formOverrides={overrides} toolbar={<UnmatchedInputsButton def={staffExtraResource} overrides={overrides} />} />;
}
