import { type FieldDef, validateRecord } from '@app/shared/resource';
import { PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import type { Db } from '../../core/db.ts';
import { nowIso } from '../../core/db.ts';
import { AppError, badRequest } from '../../core/errors.ts';
import { cellText, isEmptyCell } from '../../core/excel/cells.ts';
import { type CellContext, cellToFieldValue, importFields, normalizeHeader } from '../../core/excel/columns.ts';
import { openWorkbook } from '../../core/excel/readWorkbook.ts';
import { type SheetRow, WorkbookFormatError } from '../../core/excel/types.ts';
import { apiToDb } from '../../crud/rowMapping.ts';

/**
 * Payslip import, all or nothing: the shared readers (.xls and .xlsx by magic bytes) and cell conversion,
 * then every row validated by the definition before anything is written. A header that is not a payslip
 * column is an error of the whole file (a misspelt item must not vanish silently); text in a money cell is an
 * error of its row; with any error nothing is imported. A row whose month and ID card match an earlier
 * imported payslip replaces it; generated payslips are left alone.
 */

const MAX_LISTED_ERRORS = 1000;
const WRITE_CHUNK = 200;

export interface ImportProblem {
  row: number;
  column: string;
  message: string;
}

const EMPTY_LOOKUPS: Omit<CellContext, 'date1904'> = { dictValues: new Map(), dictLabels: new Map(), refIds: new Map() };

/** Reads and validates the whole sheet; returns the rows (API shape) or throws a 400 naming every problem. */
export async function readPayslipSheet(file: Buffer): Promise<Record<string, unknown>[]> {
  let wb: ReturnType<typeof openWorkbook>;
  try {
    wb = openWorkbook(file);
  } catch (err) {
    if (err instanceof WorkbookFormatError) throw badRequest(err.message, undefined, 'BAD_FILE');
    throw err;
  }
  const fields = importFields(payslipResource);
  const byHeader = new Map(fields.flatMap((f) => [[normalizeHeader(f.label), f] as const, [normalizeHeader(f.name), f] as const]));
  const ctx: CellContext = { ...EMPTY_LOOKUPS, date1904: wb.date1904 };
  const rows: Record<string, unknown>[] = [];
  const problems: ImportProblem[] = [];
  let columns: [number, (typeof fields)[number]][] | null = null;
  const seen = new Map<string, number>();
  try {
    for await (const r of wb.rows as AsyncIterable<SheetRow>) {
      if (!r.cells.some((c) => !isEmptyCell(c))) continue;
      if (columns === null) {
        columns = headerColumns(r, byHeader);
        continue;
      }
      const values: Record<string, unknown> = {};
      const rowProblems: ImportProblem[] = [];
      for (const [i, f] of columns) {
        const res = cellToFieldValue(f, r.cells[i], ctx);
        if (!res.ok) rowProblems.push({ row: r.row, column: f.label, message: res.message });
        else if (res.value !== null && res.value !== '') values[f.name] = res.value;
      }
      const failed = new Set(rowProblems.map((p) => p.column));
      const { value, errors } = validateRecord(payslipResource, values, 'create');
      for (const [name, message] of Object.entries(errors)) {
        const label = payslipResource.fields.find((f) => f.name === name)?.label ?? name;
        if (!failed.has(label)) rowProblems.push({ row: r.row, column: label, message });
      }
      if (!rowProblems.length) {
        const key = `${value.month}|${value.idCard}`;
        const first = seen.get(key);
        if (first !== undefined) rowProblems.push({ row: r.row, column: '身份证号', message: `与第${first}行重复（月份+身份证号相同）` });
        else seen.set(key, r.row);
      }
      problems.push(...rowProblems);
      rows.push(value);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof WorkbookFormatError) throw badRequest(err.message, undefined, 'BAD_FILE');
    throw badRequest('文件已损坏，无法读取', undefined, 'BAD_FILE');
  }
  if (columns === null || rows.length === 0) throw badRequest('文件中没有数据', undefined, 'BAD_FILE');
  if (problems.length) {
    const shown = problems.slice(0, 10).map((p) => `第${p.row}行${p.column ? `“${p.column}”` : ''}：${p.message}`);
    const fieldErrors = Object.fromEntries(problems.slice(0, MAX_LISTED_ERRORS).map((p) => [`row${p.row}.${p.column}`, p.message]));
    throw new AppError(
      400,
      `${new Set(problems.map((p) => p.row)).size}行数据有误，未导入任何数据：${shown.join('；')}${problems.length > 10 ? `；等共${problems.length}处` : ''}`,
      'IMPORT_ROWS',
      fieldErrors,
    );
  }
  return rows;
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
    if (used.has(f.name)) throw badRequest(`列“${f.label}”重复出现`, undefined, 'BAD_FILE');
    used.add(f.name);
    columns.push([i, f]);
  });
  if (unknown.length) throw badRequest(`文件中有无法识别的列：${unknown.slice(0, 20).join('、')}，请使用工资条模板的列名`, undefined, 'BAD_FILE');
  const missing = (payslipResource.fields as readonly FieldDef[]).filter((f) => f.required && !used.has(f.name));
  if (missing.length) throw badRequest(`缺少必填列：${missing.map((f) => f.label).join('、')}`, undefined, 'BAD_FILE');
  return columns;
}

/** Writes validated rows in one transaction: replaces imported payslips with the same month and ID card. */
export async function savePayslipRows(db: Db, rows: Record<string, unknown>[]): Promise<{ inserted: number; updated: number }> {
  const table = payslipResource.table;
  return db.transaction().execute(async (trx) => {
    const existing = new Map<string, number>();
    const months = [...new Set(rows.map((r) => String(r.month)))];
    for (let i = 0; i < rows.length; i += 1000) {
      const ids = [...new Set(rows.slice(i, i + 1000).map((r) => String(r.idCard)))];
      const found = await trx
        .selectFrom(table)
        .select(['id', 'month', 'id_card'])
        .where('source', '=', PAYSLIP_SOURCE.imported)
        .where('month', 'in', months)
        .where('id_card', 'in', ids)
        .execute();
      for (const f of found) existing.set(`${f.month}|${f.id_card}`, Number(f.id));
    }
    const now = nowIso();
    const inserts: Record<string, unknown>[] = [];
    let updated = 0;
    for (const r of rows) {
      const dbRow = { ...apiToDb(payslipResource, r), source: PAYSLIP_SOURCE.imported, update_time: now };
      const id = existing.get(`${r.month}|${r.idCard}`);
      if (id !== undefined) {
        await trx.updateTable(table).set(dbRow).where('id', '=', id).execute();
        updated++;
      } else inserts.push({ ...dbRow, create_time: now });
    }
    // Every insert carries the same columns (apiToDb maps each field present; absent optional cells are null).
    const columns = [...new Set(inserts.flatMap((r) => Object.keys(r)))];
    const full = inserts.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
    for (let i = 0; i < full.length; i += WRITE_CHUNK) await trx.insertInto(table).values(full.slice(i, i + WRITE_CHUNK)).execute();
    return { inserted: inserts.length, updated };
  });
}
