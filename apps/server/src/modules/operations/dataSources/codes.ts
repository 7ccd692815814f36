/** The data-source codes live with the contracts (packages/shared/src/contracts/operations/dataSources.ts). */
export { DATA_SOURCE_CODES } from '@app/shared/contracts/operations/dataSources';
