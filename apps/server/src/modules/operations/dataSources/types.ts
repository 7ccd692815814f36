/**
 * Data sources (spec §3 "Data source (two variants)", issue 11 item 4): where the rows of a model task come
 * from. A `/dataOrigin` row is one of four types; a `custom` one points at a `/customDatasource` row, which is a
 * projection of one of our own datasets (data.ts).
 */

import { CHARACTER_ENCODINGS, DATA_SOURCE_TYPES, SQL_KINDS } from '@app/shared/contracts/operations/dataSources';

export { CHARACTER_ENCODINGS, DATA_SOURCE_TYPES, SQL_KINDS };
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];

export type SqlKind = (typeof SQL_KINDS)[number];

export type CharacterEncoding = (typeof CHARACTER_ENCODINGS)[number];

/**
 * The iconv-lite name of each: ANSI on a Chinese Windows is code page 936 (GBK); GB2312 files are decoded as
 * GBK, its superset, so a file saved as "GB2312" with a GBK-only character still reads; UNICODE is what Windows
 * Notepad calls UTF-16 (BOM decides the byte order, little-endian without one).
 */
export const ICONV_NAME: Record<CharacterEncoding, string> = {
  ASCII: 'ascii',
  ANSI: 'gbk',
  GBK: 'gbk',
  GB2312: 'gbk',
  'UTF-8': 'utf8',
  GB18030: 'gb18030',
  UNICODE: 'utf-16',
};

/** One column of a source: its name as the rows carry it, plus (custom sources) the dataset field it shows. */
export interface TableField {
  fieldName: string;
  /** API name of the dataset field (custom sources only). */
  field?: string;
  type?: string;
}

/** What `openDataSource` hands a reader: the column names and the rows, streamed. */
export interface DataSourceReader {
  fields: string[];
  rows: AsyncIterable<Record<string, unknown>>;
  /** Releases the connection or file; safe to call more than once, also after the rows ran out. */
  close(): Promise<void>;
}

export interface OpenOptions {
  signal?: AbortSignal;
  /** At most this many rows (the preview asks for 10); the row cap of the source type applies anyway. */
  limit?: number;
}

/** A stored `/dataOrigin` row as the readers need it (database shape, password still sealed). */
export interface DataOriginRecord {
  id: number;
  dataName: string;
  code: string | null;
  type: DataSourceType;
  dbKind: SqlKind | null;
  dbSite: string | null;
  dbPort: number | null;
  dbUser: string | null;
  dbPasswordSealed: string | null;
  dbName: string | null;
  query: string | null;
  fileKey: string | null;
  /** Which store holds the file (core/storage StoredRef as JSON); null: the active one. */
  fileRef: string | null;
  fileName: string | null;
  characterEncoding: CharacterEncoding;
  customDatasourceId: number | null;
  tableData: TableField[];
  rowCount: number | null;
  ownerId: number | null;
  createBy: string | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface CustomDatasourceRecord {
  id: number;
  name: string;
  dataset: string;
  characterEncoding: CharacterEncoding;
  tableData: TableField[];
  createBy: string | null;
  createTime: string | null;
  updateTime: string | null;
}

/** Rows a SQL source may return in one read (a run, not the preview); beyond it the read stops with a message. */
export const SQL_ROW_CAP = 1_000_000;
/** Statement timeout of a SQL read (a run); the preview and the test use shorter ones. */
export const SQL_STATEMENT_TIMEOUT_MS = 5 * 60_000;
export const SQL_PREVIEW_TIMEOUT_MS = 10_000;
export const SQL_CONNECT_TIMEOUT_MS = 5_000;
/** Rows a preview shows (spec: details show a 10-row preview). */
export const PREVIEW_ROWS = 10;
