/** Shapes and constants of the data-source screens (server: apps/server/src/modules/operations/dataSources). */

export const DATA_SOURCE_TYPES = ['sql', 'csv', 'xls', 'custom'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];
/** Spec §9, in its order. */
export const CHARACTER_ENCODINGS = ['ASCII', 'ANSI', 'GBK', 'GB2312', 'UTF-8', 'GB18030', 'UNICODE'] as const;
export const SQL_KINDS = ['mysql', 'postgres'] as const;

export const DATASOURCE_CODES = {
  create: ['DATASOURCE_ALL', 'DATASOURCE_CREATE'],
  edit: ['DATASOURCE_ALL', 'DATASOURCE_EDIT'],
  delete: ['DATASOURCE_ALL', 'DATASOURCE_DELETE'],
};

export interface TableField {
  fieldName: string;
  field?: string;
  type?: string;
}

export interface DataSourceRow {
  id: number;
  dataName: string;
  code: string | null;
  type: DataSourceType;
  dbKind: 'mysql' | 'postgres' | null;
  dataBaseSite: string | null;
  dataBasePort: number | null;
  dataBaseUser: string | null;
  dataBasePassWord: string;
  hasPassword: boolean;
  dataBaseName: string | null;
  query: string | null;
  url: string | null;
  fileName: string | null;
  characterEncoding: string;
  customDatabase: number | null;
  customDatabaseName: string | null;
  tableData: TableField[];
  rowCount: number | null;
  createBy: string | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface DataSourceDetails extends DataSourceRow {
  pvData: Record<string, unknown>[];
  pvError?: string;
}

export interface CustomDatasourceRow {
  id: number;
  name: string;
  dataset: string;
  datasetName: string;
  characterEncoding: string;
  tableData: TableField[];
  createBy: string | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface Dataset {
  key: string;
  label: string;
  fields: { field: string; fieldName: string; type: string }[];
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}
