import type { CodedMessage } from '@app/shared/errors/catalogue';
import type { FieldMessage } from '@app/shared/errors/zodIssues';
import { columnOf, type FieldDef, validateRecord } from '@app/shared/resource';
import { payslipMismatches } from '@app/shared/payroll/payslipCheck';
import { PAYSLIP_MONEY_ITEMS, PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import type { Db, DialectName } from '../../core/db.ts';
import { insertRowsRaw, nowIso, updateRowsRaw } from '../../core/db.ts';
import { AppError, appErrorOf } from '../../core/errors.ts';
import { cellText, isEmptyCell } from '../../core/excel/cells.ts';
import { type CellContext, cellToFieldValue, importFields, normalizeHeader } from '../../core/excel/columns.ts';
import { findHeaderRow, HeaderNotFoundError } from '../../core/excel/findHeader.ts';
import { pgArrayType } from '../../core/excel/importPipeline.ts';
import { openWorkbook } from '../../core/excel/readWorkbook.ts';
import { type SheetRow, WorkbookFormatError } from '../../core/excel/types.ts';
import { apiToDb } from '../../crud/rowMapping.ts';

/**
 * Payslip import, all or nothing, in two streamed passes over the file (finding S4: holding 200,000 rows took
 * 2 GB and stalled the server for 8-22 s). Pass 1 reads the rows through the shared readers (.xls and .xlsx
 * by magic bytes) and cell conversion and validates each by the definition, keeping only the month|ID-card
 * keys (for duplicates), the problems and the warnings. With any problem nothing is written. Pass 2 reads the
 * file again and writes it in chunks inside one transaction (see writePayslipChunk): a row whose month and
 * ID card match an earlier payslip (generated or imported) replaces it. Both passes give the event loop a turn
 * every few hundred rows, so other requests are answered during a long import.
 *
 * A header that is not a payslip column is an error of the whole file (a misspelt item must not vanish
 * silently); text in a money cell is an error of its row. Rows with a number cell whose last digits Excel lost
 * (an ID card or bank account column not set to text) are counted apart in the message. A row whose totals do
 * not add up (本期应发, 实发: payslipMismatches) is imported as written with a warning in the report (P6).
 */

const MAX_LISTED_ERRORS = 1000;
const MAX_LISTED_WARNINGS = 1000;
/**
 * Rows read, matched and written together: one read of the chunk's existing payslips, then its inserts and
 * updates as multi-row plain-SQL statements (issue 20: one UPDATE per replaced payslip is one round trip each on
 * PostgreSQL and MariaDB, and Kysely's tree for 200-row INSERTs of ~70 columns cost more than the database).
 */
const WRITE_CHUNK = 1000;
/**
 * Rows per INSERT/UPDATE statement: PostgreSQL sends one array per column (unnest), so a whole chunk is one
 * statement; SQLite and MySQL take one `?` per value, kept near 20,000 (SQLite allows 32,766).
 */
const rowsPerStatement = (dialect: DialectName, columns: number) => (dialect === 'postgres' ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(20_000 / (columns + 1))));
/**
 * The rows without the columns that are empty in every one of them (`keep`: columns always written). A payslip
 * file fills a dozen of its ~70 items; sending the others as NULLs made the INSERTs 1.5 to 4 times slower on all
 * three databases (20,000 rows on MariaDB: ~7 s against ~2 s). Leaving them out stores the same NULLs:
 * ac_payslip's item columns have no default.
 */
function withoutEmptyColumns(rows: Record<string, unknown>[], keep: ReadonlySet<string>): Record<string, unknown>[] {
  if (!rows.length) return rows;
  const used = Object.keys(rows[0]).filter((c) => keep.has(c) || rows.some((r) => r[c] !== null && r[c] !== undefined));
  if (used.length === Object.keys(rows[0]).length) return rows;
  return rows.map((r) => {
    const out: Record<string, unknown> = {};
    for (const c of used) out[c] = r[c];
    return out;
  });
}
/** Rows between two turns of the event loop. */
const YIELD_EVERY = 250;
/** The most rows one payslip file may hold. */
export const PAYSLIP_IMPORT_MAX_ROWS = 200_000;

export interface ImportProblem {
  row: number;
  column: string;
  message: FieldMessage;
  digitLoss?: true;
}

/** A row imported as it is, with a remark on its totals. */
export interface ImportWarning {
  row: number;
  /** The column's Chinese label. */
  column: string;
  /** What the row's figures do not match, as a catalogue message (the route renders it in the request's language). */
  message: CodedMessage;
}

const EMPTY_LOOKUPS: Omit<CellContext, 'date1904'> = { dictValues: new Map(), dictLabels: new Map(), refIds: new Map() };

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One data row of the sheet: its Excel row number, its values (API shape) and its problems. */
interface PayslipSheetRow {
  row: number;
  value: Record<string, unknown>;
  problems: ImportProblem[];
}

/** The rows of a payslip file after its header, converted and validated one at a time. */
async function* payslipSheetRows(file: Buffer): AsyncGenerator<PayslipSheetRow> {
  let wb: ReturnType<typeof openWorkbook>;
  try {
    wb = openWorkbook(file);
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw appErrorOf(err);
    throw err;
  }
  const fields = importFields(payslipResource);
  const byHeader = new Map(fields.flatMap((f) => [[normalizeHeader(f.label), f] as const, [normalizeHeader(f.name), f] as const]));
  const ctx: CellContext = { ...EMPTY_LOOKUPS, date1904: wb.date1904 };
  try {
    const iterator = (wb.rows as AsyncIterable<SheetRow>)[Symbol.asyncIterator]();
    const required = fields.filter((f) => f.required);
    const columns = headerColumns(await findHeaderRow(iterator, (text) => byHeader.get(normalizeHeader(text)), required), byHeader);
    let n = 0;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const r = next.value;
      if (++n % YIELD_EVERY === 0) await turn();
      if (!r.cells.some((c) => !isEmptyCell(c))) continue;
      const values: Record<string, unknown> = {};
      const problems: ImportProblem[] = [];
      for (const [i, f] of columns) {
        const res = cellToFieldValue(f, r.cells[i], ctx);
        if (!res.ok) problems.push({ row: r.row, column: f.label, message: res.error, digitLoss: res.digitLoss });
        else if (res.value !== null && res.value !== '') values[f.name] = res.value;
      }
      const failed = new Set(problems.map((p) => p.column));
      const { value, errors } = validateRecord(payslipResource, values, 'create');
      for (const [name, message] of Object.entries(errors)) {
        const label = payslipResource.fields.find((f) => f.name === name)?.label ?? name;
        if (!failed.has(label)) problems.push({ row: r.row, column: label, message });
      }
      yield { row: r.row, value, problems };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkbookFormatError || err instanceof HeaderNotFoundError) throw appErrorOf(err);
    throw new AppError('FILE_CORRUPT');
  }
}

/** The money items of a validated row in fen (the check works in fen; API values are yuan with 2 decimals). */
function amountsInFen(value: Record<string, unknown>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const name of PAYSLIP_MONEY_ITEMS) {
    const v = value[name];
    out[name] = v === null || v === undefined || v === '' ? null : Math.round(Number(v) * 100);
  }
  return out;
}

/** What pass 1 found: the row count and the warnings (problems are thrown). */
export interface PayslipSheetCheck {
  total: number;
  warnings: ImportWarning[];
}

/** Pass 1: reads and validates the whole sheet without keeping its rows; throws a 400 naming every problem. */
export async function checkPayslipSheet(file: Buffer, maxRows = PAYSLIP_IMPORT_MAX_ROWS): Promise<PayslipSheetCheck> {
  const problems: ImportProblem[] = [];
  const warnings: ImportWarning[] = [];
  const seen = new Map<string, number>();
  let total = 0;
  let problemCount = 0;
  const problemRows = new Set<number>();
  const digitLossRows = new Set<number>();
  for await (const r of payslipSheetRows(file)) {
    if (++total > maxRows) {
      throw new AppError('PAYSLIP_IMPORT_TOO_MANY_ROWS', { max: maxRows });
    }
    const rowProblems = r.problems;
    if (!rowProblems.length) {
      const key = `${r.value.month}|${r.value.idCard}`;
      const first = seen.get(key);
      if (first !== undefined) rowProblems.push({ row: r.row, column: '身份证号', message: { code: 'PAYSLIP_IMPORT_DUPLICATE_ROW', params: { row: first } } });
      else seen.set(key, r.row);
    }
    if (rowProblems.length) {
      problemCount += rowProblems.length;
      problemRows.add(r.row);
      if (rowProblems.some((p) => p.digitLoss)) digitLossRows.add(r.row);
      if (problems.length < MAX_LISTED_ERRORS) problems.push(...rowProblems);
      continue;
    }
    if (warnings.length < MAX_LISTED_WARNINGS) {
      for (const m of payslipMismatches(amountsInFen(r.value))) warnings.push({ row: r.row, column: m.column, message: m.message });
    }
  }
  if (total === 0) throw new AppError('FILE_NO_DATA');
  if (problemCount) {
    // the headline lists the first problems as codes, so the whole sentence renders in the request's language
    const shown = problems.slice(0, 10).map(
      (p): CodedMessage => (p.column ? { code: 'IMPORT_ROW_CELL_PROBLEM', params: { row: p.row, label: p.column, reason: p.message } } : { code: 'IMPORT_ROW_PROBLEM', params: { row: p.row, reason: p.message } }),
    );
    const fieldErrors = Object.fromEntries(problems.slice(0, MAX_LISTED_ERRORS).map((p) => [`row${p.row}.${p.column}`, p.message]));
    const more = problemCount > 10;
    const code = digitLossRows.size
      ? more
        ? 'PAYSLIP_IMPORT_ROWS_DIGIT_LOSS_MORE'
        : 'PAYSLIP_IMPORT_ROWS_DIGIT_LOSS'
      : more
        ? 'PAYSLIP_IMPORT_ROWS_MORE'
        : 'PAYSLIP_IMPORT_ROWS';
    throw new AppError(code, { count: problemRows.size, digitRows: digitLossRows.size, rows: { list: shown, joiner: 'semicolon' }, problems: problemCount }, fieldErrors);
  }
  return { total, warnings };
}

function headerColumns(r: SheetRow, byHeader: Map<string, ReturnType<typeof importFields>[number]>) {
  const columns: [number, ReturnType<typeof importFields>[number]][] = [];
  const unknown: string[] = [];
  const used = new Set<string>();
  r.cells.forEach((c, i) => {
    const text = cellText(c ?? null).trim();
    if (!text) return;
    const f = byHeader.get(normalizeHeader(text));
    if (!f) {
      unknown.push(text);
      return;
    }
    if (used.has(f.name)) throw new AppError('PAYSLIP_IMPORT_COLUMN_TWICE', { label: f.label });
    used.add(f.name);
    columns.push([i, f]);
  });
  if (unknown.length) throw new AppError('PAYSLIP_IMPORT_UNKNOWN_COLUMNS', { columns: { list: unknown.slice(0, 20), joiner: 'enumeration' } });
  const missing = (payslipResource.fields as readonly FieldDef[]).filter((f) => f.required && !used.has(f.name));
  if (missing.length) throw new AppError('IMPORT_COLUMNS_MISSING', { labels: { list: missing.map((f) => f.label), joiner: 'enumeration' } });
  return columns;
}

/** Who imports, for the operation-log row that lists the generated payslips an import replaced. */
export interface PayslipImportAudit {
  username: string | null;
  ip: string;
  browser: string;
}

export interface PayslipSaveResult {
  total: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Generated payslips (month|ID card) that an imported row replaced. */
  replaced: string[];
  /** Rows imported as written whose totals do not add up (P6). */
  warnings: ImportWarning[];
}

const same = (a: unknown, b: unknown) => (a === null || a === undefined || a === '' ? '' : String(a)) === (b === null || b === undefined || b === '' ? '' : String(b));

/**
 * Imports a payslip file: pass 1 (checkPayslipSheet), then pass 2 writes it in one transaction, WRITE_CHUNK rows
 * at a time. A row whose month and ID card match one payslip of the month, generated or imported, replaces it
 * (the payslip keeps its id and company; cells left empty clear the item), so an employee never has two
 * payslips for one month and re-importing an exported file changes nothing: a row equal to its payslip is
 * counted unchanged and not written. When the person has several payslips that month (paid by two client
 * companies), the 名称 column picks the one; if it cannot, the row is refused and nothing is written (the
 * transaction is rolled back). Generated payslips an import replaced are listed in the operation log.
 */
export async function importPayslipFile(db: Db, dialect: DialectName, file: Buffer, audit?: PayslipImportAudit): Promise<PayslipSaveResult> {
  const { total, warnings } = await checkPayslipSheet(file);
  const table = payslipResource.table;
  const fields = importFields(payslipResource);
  const pgTypes = new Map(fields.map((f) => [columnOf(f), pgArrayType(f)]));
  // every import column, plus source and the times
  const perStatement = rowsPerStatement(dialect, fields.length + 3);
  // a column with a default in the definition is written even when empty, should its database column get one
  const alwaysWritten = new Set(fields.filter((f) => f.defaultValue !== undefined && f.defaultValue !== null).map(columnOf));
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const problems: CodedMessage[] = [];
    const replaced: string[] = [];
    let inserted = 0;
    let updated = 0;
    let unchanged = 0;

    const writeChunk = async (chunk: PayslipSheetRow[]) => {
      const existing = new Map<string, Record<string, unknown>[]>();
      const months = [...new Set(chunk.map((r) => String(r.value.month)))];
      const ids = [...new Set(chunk.map((r) => String(r.value.idCard)))];
      const found = (await trx.selectFrom(table).selectAll().where('month', 'in', months).where('id_card', 'in', ids).execute()) as Record<string, unknown>[];
      for (const f of found) {
        const key = `${f.month}|${f.id_card}`;
        existing.set(key, [...(existing.get(key) ?? []), f]);
      }
      const inserts: Record<string, unknown>[] = [];
      const updates: { id: number; values: Record<string, unknown> }[] = [];
      for (const { row, value: r } of chunk) {
        const key = `${r.month}|${r.idCard}`;
        // every import column: an empty cell clears the item of the payslip it replaces
        const dbRow = apiToDb(payslipResource, Object.fromEntries(fields.map((f) => [f.name, r[f.name] ?? null])));
        let matches = existing.get(key) ?? [];
        if (matches.length > 1) matches = matches.filter((e) => same(e.mingcheng, dbRow.mingcheng));
        if (matches.length > 1 || (matches.length === 0 && (existing.get(key)?.length ?? 0) > 1)) {
          const all = existing.get(key) ?? [];
          const names = all.map((e): CodedMessage | string => (e.mingcheng ? String(e.mingcheng) : { code: 'PAYSLIP_IMPORT_NAME_BLANK' }));
          problems.push({ code: 'PAYSLIP_IMPORT_AMBIGUOUS', params: { row, idCard: String(r.idCard), month: String(r.month), count: all.length, names: { list: names, joiner: 'enumeration' } } });
          continue;
        }
        const old = matches[0];
        if (!old) {
          inserts.push({ ...dbRow, source: PAYSLIP_SOURCE.imported, create_time: now, update_time: now });
          continue;
        }
        if (Object.entries(dbRow).every(([c, v]) => same(old[c], v))) {
          unchanged++;
          continue;
        }
        if (old.source === PAYSLIP_SOURCE.generated) replaced.push(key);
        updates.push({ id: Number(old.id), values: { ...dbRow, source: PAYSLIP_SOURCE.imported, update_time: now } });
        updated++;
      }
      if (problems.length) return; // nothing more is written; the transaction is rolled back below
      const newRows = withoutEmptyColumns(inserts, alwaysWritten);
      const insertsPerStatement = newRows.length ? rowsPerStatement(dialect, Object.keys(newRows[0]).length) : 1;
      for (let i = 0; i < newRows.length; i += insertsPerStatement) await insertRowsRaw(trx, dialect, table, newRows.slice(i, i + insertsPerStatement), pgTypes);
      for (let i = 0; i < updates.length; i += perStatement) await updateRowsRaw(trx, dialect, table, updates.slice(i, i + perStatement), pgTypes);
      inserted += inserts.length;
    };

    let chunk: PayslipSheetRow[] = [];
    for await (const r of payslipSheetRows(file)) {
      chunk.push(r);
      if (chunk.length === WRITE_CHUNK) {
        await writeChunk(chunk);
        chunk = [];
        await turn();
      }
    }
    if (chunk.length) await writeChunk(chunk);
    if (problems.length) {
      throw new AppError(problems.length > 10 ? 'PAYSLIP_IMPORT_UNMATCHED_MORE' : 'PAYSLIP_IMPORT_UNMATCHED', {
        count: problems.length,
        rows: { list: problems.slice(0, 10), joiner: 'semicolon' },
      });
    }
    if (replaced.length && audit) {
      const list = replaced.slice(0, 100).map((k) => ({ month: k.split('|')[0], idCard: k.split('|')[1] }));
      const params = JSON.stringify({ replaced: list, ...(replaced.length > list.length ? { more: replaced.length - list.length } : {}) });
      await trx
        .insertInto('sys_log')
        .values({
          log_type: 'INFO',
          username: audit.username,
          description: `导入工资条：替换生成的工资条${replaced.length}条`,
          method: 'POST /api/import/acPayslip',
          params: params.length > 4000 ? `${params.slice(0, 4000)}…` : params,
          request_ip: audit.ip,
          browser: audit.browser.slice(0, 255),
          time: 0,
          exception_detail: null,
          create_time: now,
        })
        .execute();
    }
    return { total, inserted, updated, unchanged, replaced, warnings };
  });
}
