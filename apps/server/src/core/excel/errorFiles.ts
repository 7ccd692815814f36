import crypto from 'node:crypto';
import type { Language } from '@app/shared/language';
import { renderFor, renderListFor } from '../errorLanguage.ts';
import type { Cache } from '../cache.ts';
import { cacheNamespace } from '../cacheNamespaces.ts';
import { excelSerialToDate } from './cells.ts';
import type { FailedRow } from './importPipeline.ts';
import type { XlsxColumn } from './writeXlsx.ts';
import { xlsxBuffer } from './xlsxStream.ts';

/**
 * Error sheets of imports: the rejected rows as uploaded plus 行号 and 错误原因, kept one hour for the
 * uploader only. They live in the shared cache (Redis when configured), so any server instance can serve
 * the download.
 */

export const ERROR_FILE_TTL_SECONDS = 3600;
// kept for the uploader, not rebuildable; an administrator may remove one
const ERROR_FILES = cacheNamespace('importErrors', 'protected', '导入错误文件（保留1小时）', { adminMayDelete: true });
const KEY = (id: string) => ERROR_FILES.key(id);

interface StoredErrorFile {
  userId: number;
  fileName: string;
  data: string;
}

/**
 * Build the error sheet of an import as an .xlsx buffer, its own headers and the reasons in `language` (the import
 * request's); the uploaded headers and cells stay as they were.
 */
export async function buildErrorSheet(header: string[], dateColumns: number[], rows: FailedRow[], date1904: boolean, language: Language = 'zh'): Promise<Buffer> {
  const dates = new Set(dateColumns);
  type Row = FailedRow;
  const columns: XlsxColumn<Row>[] = [
    { header: renderFor('IMPORT_ERROR_SHEET_ROW', language), kind: 'int', value: (r) => r.row, width: 8 },
    ...header.map(
      (h, i): XlsxColumn<Row> => ({
        header: h || renderFor('IMPORT_ERROR_SHEET_COLUMN', language, { n: i + 1 }),
        // serial dates back to dates; other cells exactly as uploaded (text stays text)
        kind: dates.has(i) ? 'date' : 'text',
        value: (r) => {
          const v = r.cells[i];
          if (dates.has(i) && typeof v === 'number') return excelSerialToDate(v, date1904) ?? v;
          return v;
        },
      }),
    ),
    { header: renderFor('IMPORT_ERROR_SHEET_REASON', language), kind: 'text', value: (r) => renderListFor(r.reason, language), width: 60 },
  ];
  const sheetName = renderFor('IMPORT_ERROR_SHEET_NAME', language);
  return xlsxBuffer({ fileName: sheetName, sheetName, columns, rows });
}

/** Keep an error sheet for an hour; returns its id. */
export async function saveErrorFile(cache: Cache, userId: number, fileName: string, data: Buffer): Promise<string> {
  const id = crypto.randomUUID();
  const stored: StoredErrorFile = { userId, fileName, data: data.toString('base64') };
  await cache.set(KEY(id), JSON.stringify(stored), ERROR_FILE_TTL_SECONDS);
  return id;
}

/** The stored error sheet, or null when unknown or expired. */
export async function loadErrorFile(cache: Cache, id: string): Promise<{ userId: number; fileName: string; data: Buffer } | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const raw = await cache.get(KEY(id));
  if (!raw) return null;
  const stored = JSON.parse(raw) as StoredErrorFile;
  return { userId: stored.userId, fileName: stored.fileName, data: Buffer.from(stored.data, 'base64') };
}
