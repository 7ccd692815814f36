import { taxDeductionResource } from '@app/shared/resources/taxDeduction';
import { ResourcePage } from '../../../crud';
import type { FieldOverride } from '../../../crud/CrudDialog';
import { AgentSelect, StaffPicker } from './pickers';
import { UnmatchedInputsButton } from './UnmatchedInputs';

/** 专项附加扣除: the generic screen with the agent and the person chosen, not typed (U1), and its 无法匹配 check. */
const overrides: Record<string, FieldOverride> = {
  dispatchCompany: { control: <AgentSelect /> },
  idCard: { control: <StaffPicker agentField="dispatchCompany" fill={{ name: 'staffName' }} /> },
  staffName: { disabled: true },
};

export default function TaxDeductionPage() {
  return <ResourcePage resource={taxDeductionResource} formOverrides={overrides} toolbar={<UnmatchedInputsButton def={taxDeductionResource} overrides={overrides} />} />;
}
