import { taxOpeningResource } from '@app/shared/resources/taxOpening';
import { ResourcePage } from '../../../crud';
import type { FieldOverride } from '../../../crud/CrudDialog';
import { AgentSelect, StaffPicker } from './pickers';
import { UnmatchedInputsButton } from './UnmatchedInputs';

/** 期初累计数据: the generic screen with the agent and the person chosen, not typed (U1), and its 无法匹配 check. */
const overrides: Record<string, FieldOverride> = {
  dispatchCompany: { control: <AgentSelect /> },
  idCard: { control: <StaffPicker agentField="dispatchCompany" fill={{ name: 'staffName' }} /> },
  staffName: { disabled: true },
};

export default function TaxOpeningPage() {
  return <ResourcePage resource={taxOpeningResource} formOverrides={overrides} toolbar={<UnmatchedInputsButton def={taxOpeningResource} overrides={overrides} />} />;
}
