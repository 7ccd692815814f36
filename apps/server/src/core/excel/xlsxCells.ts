/**
 * The cell rules of every .xlsx the server writes (the writer itself is xlsxStream.ts; writeXlsx.ts is the one
 * entry point callers import). A generic, streaming .xlsx export: rows are written to the HTTP reply as they are produced, so a sheet of
 * many thousand rows never sits in memory. Every cell is coerced to its column's kind: data never becomes a
 * formula, a hyperlink or rich text, and text columns carry the Text number format ('@'), so Excel keeps
 * '=…', '+…', '-…' and '@…' as text even when the cell is edited (formula injection, CWE-1236).
 */

export type XlsxCellKind = 'text' | 'int' | 'number' | 'money' | 'ratio' | 'date' | 'datetime' | 'bool';

export interface XlsxColumn<Row> {
  /** Header shown in the first row (the Chinese label). */
  header: string;
  /** Property of the row to read, unless `value` is given. */
  key?: keyof Row & string;
  /** Compute the cell value from the row (e.g. names of related rows, 启用/禁用). */
  value?: (row: Row) => unknown;
  kind?: XlsxCellKind;
  /** Column width in characters. */
  width?: number;
}

export interface XlsxSheet<Row> {
  /** File name without extension; may be Chinese (sent RFC 5987-encoded). */
  fileName: string;
  sheetName?: string;
  columns: XlsxColumn<Row>[];
  rows: AsyncIterable<Row> | Iterable<Row>;
}

// Cell text limit of Excel.
const MAX_CELL_TEXT = 32_767;

/** `Content-Disposition` for a download with a non-ASCII name: an ASCII fallback plus RFC 5987 `filename*`. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  const fallback = /[A-Za-z0-9]/.test(ascii.replace(/\.[^.]*$/, '')) ? ascii : `export${fileName.match(/\.[A-Za-z0-9]+$/)?.[0] ?? ''}`;
  const encoded = encodeURIComponent(fileName).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * A formula the server itself writes into a cell (e.g. a 合计 row's SUM), never built from data: `formula` gets
 * the cell's column letters ("H") and returns the formula without '='; `cached` is the value it evaluates to,
 * stored beside it so that viewers that do not recalculate (previews, mobile apps, parsers) show the total.
 */
export class XlsxFormula {
  constructor(
    readonly formula: (column: string) => string,
    readonly cached: number,
  ) {}
}

/**
 * The Excel value of one cell: strings stay strings, numbers numbers, dates real dates shown in the
 * server's local time (the stored value is UTC ISO text). Objects never pass through as they are, since
 * ExcelJS would read `{formula}` or `{hyperlink}` from them.
 */
export function cellValue(kind: XlsxCellKind, raw: unknown): string | number | boolean | Date | null {
  if (raw === null || raw === undefined || raw === '') return null;
  switch (kind) {
    case 'int':
    case 'number':
    case 'money':
    case 'ratio': {
      const n = typeof raw === 'number' ? raw : Number(raw);
      return Number.isFinite(n) ? n : textValue(raw);
    }
    case 'bool':
      return raw === true || raw === 1 || raw === '1' || raw === 'true' ? '是' : '否';
    case 'date': {
      const s = String(raw);
      return /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00Z`) : textValue(raw);
    }
    case 'datetime': {
      const d = new Date(String(raw));
      if (Number.isNaN(d.getTime())) return textValue(raw);
      // Excel times have no zone: show the wall-clock time of the server's zone.
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
    }
    default:
      return textValue(raw);
  }
}

/** Excel refuses sheet names with \\ / ? * [ ] : or over 31 characters. */

function textValue(raw: unknown): string {
  const s = typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
  return s.length > MAX_CELL_TEXT ? s.slice(0, MAX_CELL_TEXT) : s;
}

/** Read rows page by page (e.g. 500 at a time, stable order) for a streaming export. */
export async function* pagedRows<Row>(fetchPage: (offset: number, limit: number) => Promise<Row[]>, pageSize = 500): AsyncGenerator<Row> {
  for (let offset = 0; ; offset += pageSize) {
    const page = await fetchPage(offset, pageSize);
    yield* page;
    if (page.length < pageSize) return;
  }
}
