/**
 * Shapes and constants of the data-source screens: the contracts' own
 * (packages/shared/src/contracts/operations/dataSources.ts; server: apps/server/src/modules/operations/dataSources).
 */
export {
  CHARACTER_ENCODINGS,
  type CustomDatasourceRow,
  DATA_SOURCE_CODES,
  DATA_SOURCE_TYPES,
  type DataOriginDetails as DataSourceDetails,
  type DataOriginRow as DataSourceRow,
  type Dataset,
  type DataSourceType,
  SQL_KINDS,
} from '@app/shared/contracts/operations/dataSources';
