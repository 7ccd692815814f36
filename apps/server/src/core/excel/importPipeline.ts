import type { CodedList, CodedMessage } from '@app/shared/errors/catalogue';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { dynamicDb } from '../db.ts';
import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { columnFields, columnOf, kindOf, validateField, validateRecord } from '@app/shared/resource';
import type { Db, DialectName } from '../db.ts';
import { insertReturningId, insertRowsRaw, isUniqueViolation, nowIso } from '../db.ts';
import { AppError, CodedError } from '../errors.ts';
import { toDbValue } from '@app/shared/resource';
import { cellText, isEmptyCell } from './cells.ts';
import { type CellContext, cellToFieldValue, importFields, normalizeHeader } from './columns.ts';
import { findHeaderRow, HeaderNotFoundError } from './findHeader.ts';
import type { CellValue, SheetRow, WorkbookRows } from './types.ts';

/**
 * The generic spreadsheet import: header row -> fields, each data row converted, validated by the
 * resource definition and the resource's own write rules, and saved in transactions of 500 rows. Rows
 * whose key (`excel.importKey`) matches an existing row update it. Problems with the file as a whole (no
 * data, missing required columns) are found before anything is written; problems with a row are reported
 * with its row number, column and reason while the valid rows are saved.
 */

/** A problem with the whole file, as a catalogue code with its parameters: nothing was imported. */
export class ImportFileError extends CodedError {}

export interface ImportRowError {
  /** Excel row number (1-based, as shown in Excel). */
  row: number;
  /** Column header, the field's (Chinese) label ('' when the problem concerns the whole row). */
  column: string;
  /** Rendered in the import request's language by the route. */
  message: CodedMessage;
}

export interface FailedRow {
  row: number;
  cells: CellValue[];
  /** The row's problems, each with its column: rendered in the request's language on the error sheet. */
  reason: CodedList;
}

export interface ImportResult {
  total: number;
  inserted: number;
  updated: number;
  failed: number;
  /** Of the failed rows, those with a number cell whose last digits Excel lost (a text column not set to text). */
  digitLoss: number;
  errors: ImportRowError[];
  /** More errors than `errors` holds. */
  errorsTruncated?: boolean;
  /** Header texts as in the file, for the error sheet. */
  header: string[];
  /** Columns (by index) that hold dates, for the error sheet. */
  dateColumns: number[];
  failedRows: FailedRow[];
}

export interface ImportOptions {
  def: ResourceDef;
  db: Db;
  dialect: DialectName;
  /** Dictionary and reference lookups (without the workbook's date system). */
  lookups: Omit<CellContext, 'date1904'>;
  /** Values for fields whose column is absent or whose cell is empty (e.g. the company being viewed). */
  defaults?: Record<string, unknown>;
  /** Fields the file may omit because `prepareRow` derives them. */
  derived?: ReadonlySet<string>;
  /** Fill derivable values (only where missing) before validation. */
  prepareRow?: (values: Record<string, unknown>, mode: 'create' | 'update') => Promise<void> | void;
  /** Existing rows (API shape, within the caller's scope) whose key is one of `keys` (values in importKey order). */
  findExisting?: (keys: unknown[][]) => Promise<Record<string, unknown>[]>;
  /**
   * Cross-field rules that need no valid row (e.g. a contract starting after it ends), as field -> message. They
   * run on every row next to the field checks, so a row's problems are reported in one round (U9), not only once
   * its field errors are fixed; `beforeWrite` still applies them to the rows it saves.
   */
  rowChecks?: (values: Record<string, unknown>) => Record<string, FieldMessage>;
  /** The resource's own write rules (throw AppError to refuse a row). */
  beforeWrite?: (values: Record<string, unknown>, mode: 'create' | 'update', existing?: Record<string, unknown>) => Promise<void> | void;
  /** Runs in the chunk's transaction after each row is written (forces row-by-row inserts). */
  afterWrite?: (row: Record<string, unknown>, trx: Db, mode: 'create' | 'update', existing?: Record<string, unknown>) => Promise<void> | void;
  chunkSize?: number;
  /** After each chunk is committed: the counts so far (the import's progress row, importLog.ts). */
  onChunkWritten?: (counts: { inserted: number; updated: number; failed: number }) => Promise<void>;
  maxErrors?: number;
  maxFailedRows?: number;
}

/** One problem of a row: its column's label ('' for the whole row) and the reason as a catalogue message. */
interface RowProblem {
  column: string;
  message: CodedMessage;
}

/** Field labels inside a message, each translated with the message (IMPORT_COLUMN_NAME). */
const labelList = (labels: string[], joiner: CodedList['joiner']): CodedList => ({ list: labels.map((label) => ({ code: 'IMPORT_COLUMN_NAME', params: { label } })), joiner });

interface PendingRow {
  row: number;
  cells: CellValue[];
  mode: 'create' | 'update';
  value: Record<string, unknown>;
  existing?: Record<string, unknown>;
}

// \u0001 never occurs in cell text, so joined values identify a tuple
const keyString = (values: unknown[]) => values.map((v) => (v === null || v === undefined ? '\u0000' : String(v))).join('\u0001');

/** Import the rows of a workbook. Throws ImportFileError for file-level problems (before any write). */
export async function importWorkbook(wb: WorkbookRows, opts: ImportOptions): Promise<ImportResult> {
  const { def, db, dialect } = opts;
  const chunkSize = opts.chunkSize ?? 500;
  const maxErrors = opts.maxErrors ?? 1000;
  const maxFailedRows = opts.maxFailedRows ?? 20_000;
  const ctx: CellContext = { ...opts.lookups, date1904: wb.date1904 };
  const fields = importFields(def);
  const byHeader = new Map<string, FieldDef>();
  for (const f of fields) {
    byHeader.set(normalizeHeader(f.label), f);
    byHeader.set(normalizeHeader(f.name), f);
  }
  const keyFields = (def.excel?.importKey ?? []).map((n) => def.fields.find((f) => f.name === n)!).filter(Boolean);
  // unique groups and the import key must not repeat within the file (each distinct group once)
  const groups: string[][] = [];
  for (const g of [...(def.unique ?? []).map((u) => u.fields), (def.excel?.importKey ?? []).slice()]) {
    if (g.length && !groups.some((x) => x.join() === g.join())) groups.push(g);
  }
  const defaults = opts.defaults ?? {};
  const derived = opts.derived ?? new Set<string>();

  await wb.verify?.();
  const iterator = wb.rows[Symbol.asyncIterator]();
  const requiredColumns = fields.filter((f) => f.required && f.defaultValue === undefined && !derived.has(f.name) && defaults[f.name] === undefined);
  let headerRow: SheetRow;
  try {
    headerRow = await findHeaderRow(iterator, (text) => byHeader.get(normalizeHeader(text)), requiredColumns);
  } catch (err) {
    if (err instanceof HeaderNotFoundError) throw new ImportFileError(err.code, err.params);
    throw err;
  }
  const header = headerRow.cells.map((c) => cellText(c ?? null));
  const columns: [index: number, field: FieldDef][] = [];
  const seenFields = new Map<string, number>();
  header.forEach((text, i) => {
    const f = text ? byHeader.get(normalizeHeader(text)) : undefined;
    if (!f) return;
    if (seenFields.has(f.name)) throw new ImportFileError('IMPORT_COLUMN_TWICE', { label: f.label });
    seenFields.set(f.name, i);
    columns.push([i, f]);
  });
  const missing = fields.filter(
    (f) => f.required && !seenFields.has(f.name) && f.defaultValue === undefined && !derived.has(f.name) && defaults[f.name] === undefined,
  );
  if (missing.length) throw new ImportFileError('IMPORT_COLUMNS_MISSING', { labels: { list: missing.map((f) => f.label), joiner: 'enumeration' } });
  const dateColumns = columns.filter(([, f]) => kindOf(f).excel.read === 'date').map(([i]) => i);

  const result: ImportResult = { total: 0, inserted: 0, updated: 0, failed: 0, digitLoss: 0, errors: [], header, dateColumns, failedRows: [] };
  const firstRowOfKey = new Map<string, number>();

  function fail(row: number, cells: CellValue[], problems: RowProblem[]) {
    result.failed++;
    for (const p of problems) {
      if (result.errors.length < maxErrors) result.errors.push({ row, column: p.column, message: p.message });
      else result.errorsTruncated = true;
    }
    if (result.failedRows.length < maxFailedRows) {
      const reasons = problems.map((p): CodedMessage => (p.column ? { code: 'IMPORT_CELL_REASON', params: { label: p.column, reason: p.message } } : p.message));
      result.failedRows.push({ row, cells, reason: { list: reasons, joiner: 'semicolon' } });
    }
  }
  const labelOf = (name: string) => def.fields.find((f) => f.name === name)?.label ?? name;

  function normalizedKey(values: Record<string, unknown>): unknown[] | null {
    if (!keyFields.length) return null;
    const out: unknown[] = [];
    for (const f of keyFields) {
      // as validation will store it (e.g. ID cards as 18 digits with upper-case X)
      const r = validateField(f, values[f.name]);
      if (!r.ok || r.value === null) return null;
      out.push(r.value);
    }
    return out;
  }

  async function processChunk(rows: SheetRow[]) {
    const converted = rows.map((r) => {
      const values: Record<string, unknown> = {};
      const problems: (RowProblem & { field: string; digitLoss?: true })[] = [];
      for (const [i, f] of columns) {
        const res = cellToFieldValue(f, r.cells[i], ctx);
        if (!res.ok) problems.push({ column: f.label, message: res.error, field: f.name, digitLoss: res.digitLoss });
        else if (res.value !== null && res.value !== '') values[f.name] = res.value;
      }
      for (const [name, v] of Object.entries(defaults)) if (values[name] === undefined && v !== undefined && v !== null) values[name] = v;
      return { sheetRow: r, values, problems, key: normalizedKey(values) };
    });

    const existingByKey = new Map<string, Record<string, unknown>>();
    const keys = converted.filter((c) => c.key).map((c) => c.key!);
    if (keys.length && opts.findExisting) {
      for (const row of await opts.findExisting(keys)) existingByKey.set(keyString(keyFields.map((f) => row[f.name])), row);
    }

    const pending: PendingRow[] = [];
    for (const c of converted) {
      const { sheetRow, problems } = c;
      const existing = c.key ? existingByKey.get(keyString(c.key)) : undefined;
      const mode = existing ? 'update' : 'create';
      const merged: Record<string, unknown> = existing ? { ...existing, ...c.values, id: existing.id } : { ...c.values };
      for (const p of problems) delete merged[p.field];
      await opts.prepareRow?.(merged, mode);
      const { value, errors } = validateRecord(def, merged, mode);
      const all: RowProblem[] = problems.map((p) => ({ column: p.column, message: p.message }));
      const failedFields = new Set(problems.map((p) => p.field));
      // X4: fields derived from the row (e.g. ratios from 户籍类型) that are missing because a cell failed are
      // one cause, one error: named in the failed cell's message instead of listed as missing
      const followOn: string[] = [];
      for (const [name, message] of Object.entries(errors)) {
        if (failedFields.has(name)) continue;
        if (problems.length && derived.has(name) && c.values[name] === undefined) followOn.push(labelOf(name));
        else all.push({ column: name === '_' ? '' : labelOf(name), message });
      }
      for (const [name, message] of Object.entries(opts.rowChecks?.(merged) ?? {})) {
        if (!failedFields.has(name) && !(name in errors)) all.push({ column: labelOf(name), message });
      }
      if (followOn.length) {
        const labels = labelList(followOn.slice(0, 5), 'enumeration');
        const params = { reason: all[0].message, labels, count: followOn.length };
        all[0] = { ...all[0], message: { code: followOn.length > 5 ? 'IMPORT_DERIVED_FROM_CELL_MORE' : 'IMPORT_DERIVED_FROM_CELL', params } };
      }
      if (all.length) {
        if (problems.some((p) => p.digitLoss)) result.digitLoss++;
        fail(sheetRow.row, sheetRow.cells, all);
        continue;
      }
      const dup = duplicateIn(value, sheetRow.row);
      if (dup) {
        fail(sheetRow.row, sheetRow.cells, [dup]);
        continue;
      }
      try {
        await opts.beforeWrite?.(value, mode, existing);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const fe = err.fieldErrors ? Object.entries(err.fieldErrors) : [];
        fail(sheetRow.row, sheetRow.cells, fe.length ? fe.map(([n, m]) => ({ column: labelOf(n), message: m })) : [{ column: '', message: { code: err.code, params: err.params } }]);
        continue;
      }
      registerKeys(value, sheetRow.row);
      pending.push({ row: sheetRow.row, cells: sheetRow.cells, mode, value, existing });
    }
    await writeChunk(pending);
  }

  /** Unique groups (and the import key) must not repeat within the file. */
  function groupKeys(value: Record<string, unknown>): [fields: string[], key: string][] {
    const out: [string[], string][] = [];
    for (let i = 0; i < groups.length; i++) {
      const vals = groups[i].map((n) => value[n]);
      if (vals.some((v) => v === null || v === undefined)) continue;
      out.push([groups[i], `${i}\u0002${keyString(vals)}`]);
    }
    return out;
  }
  function duplicateIn(value: Record<string, unknown>, row: number): RowProblem | null {
    for (const [g, k] of groupKeys(value)) {
      const first = firstRowOfKey.get(k);
      if (first !== undefined && first !== row) {
        return { column: labelOf(g[g.length - 1]), message: { code: 'IMPORT_DUPLICATE_IN_FILE', params: { row: first, labels: labelList(g.map(labelOf), 'plus') } } };
      }
    }
    return null;
  }
  function registerKeys(value: Record<string, unknown>, row: number) {
    for (const [, k] of groupKeys(value)) if (!firstRowOfKey.has(k)) firstRowOfKey.set(k, row);
  }

  const hasCreate = def.fields.some((f) => f.name === 'createTime');
  const hasUpdate = def.fields.some((f) => f.name === 'updateTime');
  const writeFields = columnFields(def).filter((f) => f.name !== 'id' && !f.secret).map((f) => [f, columnOf(f)] as const);
  // PostgreSQL gets one array per column (unnest), so any number of rows is one short statement
  const rowsPerInsert = dialect === 'postgres' ? chunkSize : Math.max(1, Math.floor(20_000 / (writeFields.length + 2)));
  const pgTypes = new Map<string, string>(writeFields.map(([f, col]) => [col, pgArrayType(f)]));

  /** The database row of a pending write: every column on insert (multi-row inserts need the same keys). */
  function dbRowFor(p: PendingRow, now: string): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [f, col] of writeFields) {
      if (f.name in p.value) {
        const v = p.value[f.name];
        row[col] = toDbValue(f, v);
      } else if (p.mode === 'create') row[col] = null;
    }
    if (p.mode === 'create' && hasCreate) row.create_time = now;
    if (hasUpdate) row.update_time = now;
    return row;
  }

  async function writeRows(trx: Db, rows: PendingRow[]) {
    const now = nowIso();
    const creates = rows.filter((p) => p.mode === 'create');
    if (opts.afterWrite) {
      for (const p of creates) {
        const id = await insertReturningId(trx, dialect, def.table, dbRowFor(p, now));
        await opts.afterWrite({ ...p.value, id }, trx, 'create');
      }
    } else {
      for (let i = 0; i < creates.length; i += rowsPerInsert) {
        await insertRowsRaw(trx, dialect, def.table, creates.slice(i, i + rowsPerInsert).map((p) => dbRowFor(p, now)), pgTypes);
      }
    }
    for (const p of rows) {
      if (p.mode !== 'update') continue;
      // any definition's table (the generic import): columns by name, values converted by the field kinds
      await dynamicDb(trx)
        .updateTable(def.table)
        .set(dbRowFor(p, now))
        .where('id', '=', p.value.id as number)
        .execute();
      await opts.afterWrite?.(p.value, trx, 'update', p.existing);
    }
  }

  function count(rows: PendingRow[]) {
    for (const p of rows) {
      if (p.mode === 'create') result.inserted++;
      else result.updated++;
    }
  }

  async function writeChunk(pending: PendingRow[]) {
    if (!pending.length) return;
    try {
      await db.transaction().execute((trx) => writeRows(trx, pending));
      count(pending);
      return;
    } catch (err) {
      if (pending.length === 1) return failWrite(pending[0], err);
    }
    // Something in the chunk was refused by the database (e.g. a key taken outside the caller's scope):
    // save row by row so only the offending rows fail.
    for (const p of pending) {
      try {
        await db.transaction().execute((trx) => writeRows(trx, [p]));
        count([p]);
      } catch (err) {
        failWrite(p, err);
      }
    }
  }

  function failWrite(p: PendingRow, err: unknown) {
    if (isUniqueViolation(err)) {
      const rule = def.unique?.[0];
      const message: CodedMessage = rule ? (rule.code ? { code: rule.code } : { code: 'DUPLICATE_TEXT', params: { text: rule.message } }) : { code: 'DUPLICATE', params: { resource: def.label } };
      fail(p.row, p.cells, [{ column: '', message }]);
      return;
    }
    if (err instanceof AppError) {
      fail(p.row, p.cells, [{ column: '', message: { code: err.code, params: err.params } }]);
      return;
    }
    throw err;
  }

  let chunk: SheetRow[] = [];
  for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
    const r = n.value;
    if (!r.cells.some((c) => !isEmptyCell(c))) continue;
    result.total++;
    chunk.push(r);
    if (chunk.length >= chunkSize) {
      await processChunk(chunk);
      await opts.onChunkWritten?.({ inserted: result.inserted, updated: result.updated, failed: result.failed });
      chunk = [];
    }
  }
  if (chunk.length) await processChunk(chunk);
  if (result.total === 0) throw new ImportFileError('FILE_NO_DATA');
  return result;
}

/** The PostgreSQL element type of a column's unnest() array: its kind's column type (texts as text). */
export function pgArrayType(f: FieldDef): string {
  const sql = kindOf(f).sql;
  return sql === 'bigint' || sql === 'integer' || sql === 'smallint' ? sql : sql?.startsWith('numeric') ? 'numeric' : 'text';
}

