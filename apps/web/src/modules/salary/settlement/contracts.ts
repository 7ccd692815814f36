/** The settlement screens' client: the shared contracts and the typed calls (no literal API URL in the screens). */
export { exportSettlement } from '@app/shared/contracts/settlement';
export { callContract, contractCodes, downloadContract } from '../../../app/contractClient';
