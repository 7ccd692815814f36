import type { DataOriginRow } from '@app/shared/contracts/operations/dataSources';

/**
 * Wire shapes of the 数据管理 endpoints: the contracts' own (packages/shared/src/contracts/operations), so a renamed
 * field fails `tsc` here and on the server.
 */
export {
  FILE_TYPES,
  MODEL_CODES,
  type ModelRow,
  OFF_SHELF,
  ON_SHELF,
  OUTPUT_KINDS,
  type OutputKind,
  PARAMETER_TYPES,
  type ParameterInfo,
  type ParameterType,
} from '@app/shared/contracts/operations/models';
export { type ModelDataGroup, TASK_STATE, type TaskLogRow, type TaskProgress, type TaskRow, type TaskState } from '@app/shared/contracts/operations/tasks';

/** What the task dialog reads of a data source in the list. */
export type DataOriginOption = Pick<DataOriginRow, 'id' | 'dataName' | 'type' | 'tableData'>;
