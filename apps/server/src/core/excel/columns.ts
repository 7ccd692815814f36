import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { cellText, cleanAmountText, excelSerialToDate, isEmptyCell, parseBoolCell, parseDateText, parseMonthText, ratioCell, roundNoise } from './cells.ts';
import type { CellValue } from './types.ts';
import type { XlsxCellKind, XlsxColumn } from './writeXlsx.ts';

/**
 * Which fields of a resource appear in its sheets and how a cell maps to a field value and back. Headers
 * are the fields' Chinese labels; dictionary fields show labels and store values; reference fields show the
 * referenced row's label (e.g. the company name).
 */

/** Exported columns: `excel: true`, or writable and not `excel: false`; never secrets. */
export function exportFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.secret && (f.excel === true || (f.excel !== false && !f.readOnly)));
}

/** Columns an import reads (and the template offers): the exported ones the client may write. */
export function importFields(def: ResourceDef): FieldDef[] {
  return exportFields(def).filter((f) => !f.readOnly && f.name !== 'id');
}

/** A header as users type it: no spaces, no required-marker asterisks, ASCII parentheses. */
export function normalizeHeader(s: string): string {
  return s
    .replace(/[\s*＊]/g, '')
    .replace(/（/g, '(')
    .replace(/）/g, ')')
    .toLowerCase();
}

/** Lookups a row conversion needs, loaded once per import. */
export interface CellContext {
  date1904: boolean;
  /** dictionary name -> label (and value) -> stored value */
  dictValues: Map<string, Map<string, string>>;
  /** dictionary name -> labels, for messages */
  dictLabels: Map<string, string[]>;
  /** ref field name -> label (and id text) -> id */
  refIds: Map<string, Map<string, number>>;
}

export type CellResult = { ok: true; value: unknown } | { ok: false; message: string };

function optionsHint(labels: string[] | undefined): string {
  if (!labels?.length) return '';
  const shown = labels.slice(0, 8).join('、');
  return `（可选：${shown}${labels.length > 8 ? '等' : ''}）`;
}

/**
 * The raw field value of one cell, ready for `validateRecord` (which gives the type messages). Empty cells
 * are null. Dictionary labels and reference labels that do not exist are errors here.
 */
export function cellToFieldValue(field: FieldDef, cell: CellValue | undefined, ctx: CellContext): CellResult {
  if (cell === undefined || isEmptyCell(cell)) return { ok: true, value: null };
  switch (field.kind) {
    case 'money':
      return { ok: true, value: typeof cell === 'number' ? roundNoise(cell, 2) : cleanAmountText(cellText(cell)) };
    case 'ratio':
      return { ok: true, value: ratioCell(cell) };
    case 'int':
      return { ok: true, value: typeof cell === 'number' ? roundNoise(cell, 0) : cellText(cell) };
    case 'date': {
      if (typeof cell === 'number') {
        const d = excelSerialToDate(cell, ctx.date1904);
        return d ? { ok: true, value: d } : { ok: false, message: `${field.label}日期无效` };
      }
      const text = cellText(cell);
      return { ok: true, value: parseDateText(text) ?? text };
    }
    case 'month': {
      if (typeof cell === 'number') {
        const d = excelSerialToDate(cell, ctx.date1904);
        // a bare 6-digit number such as 202401 is a month typed without separators
        if (Number.isInteger(cell) && cell >= 190001 && cell <= 220012) return { ok: true, value: parseMonthText(String(cell)) };
        return d ? { ok: true, value: d.slice(0, 7) } : { ok: false, message: `${field.label}月份无效` };
      }
      const text = cellText(cell);
      return { ok: true, value: parseMonthText(text) ?? text };
    }
    case 'bool': {
      const b = parseBoolCell(cell);
      return b === null ? { ok: false, message: `${field.label}应填写"是"或"否"` } : { ok: true, value: b };
    }
    case 'dict': {
      const text = cellText(cell);
      const value = ctx.dictValues.get(field.dict ?? '')?.get(text);
      if (value === undefined) return { ok: false, message: `${field.label}"${text}"不是可选值${optionsHint(ctx.dictLabels.get(field.dict ?? ''))}` };
      return { ok: true, value };
    }
    case 'ref': {
      const text = cellText(cell);
      const id = ctx.refIds.get(field.name)?.get(text);
      if (id === undefined) return { ok: false, message: `${field.label}"${text}"不存在或无权访问` };
      return { ok: true, value: id };
    }
    default:
      return { ok: true, value: cellText(cell) };
  }
}

const SHEET_KIND: Record<FieldDef['kind'], XlsxCellKind> = {
  string: 'text',
  text: 'text',
  int: 'int',
  money: 'money',
  ratio: 'ratio',
  date: 'date',
  month: 'text',
  datetime: 'datetime',
  bool: 'bool',
  dict: 'text',
  ref: 'text',
  idCard: 'text',
  phone: 'text',
  email: 'text',
};

/** Lookups an export needs to show labels instead of stored values. */
export interface ExportLookups {
  /** dictionary name -> value -> label */
  dictLabelOf: Map<string, Map<string, string>>;
  /** ref field name -> id -> label */
  refLabelOf: Map<string, Map<number, string>>;
}

/** The sheet column of a field for an export of API-shaped rows. */
export function exportColumn(field: FieldDef, lookups: ExportLookups): XlsxColumn<Record<string, unknown>> {
  const kind = SHEET_KIND[field.kind];
  const width = field.kind === 'idCard' ? 22 : field.kind === 'datetime' ? 20 : undefined;
  if (field.kind === 'dict') {
    const labels = lookups.dictLabelOf.get(field.dict ?? '');
    return { header: field.label, kind, width, value: (row) => (row[field.name] == null ? null : (labels?.get(String(row[field.name])) ?? row[field.name])) };
  }
  if (field.kind === 'ref') {
    const labels = lookups.refLabelOf.get(field.name);
    return { header: field.label, kind, width, value: (row) => (row[field.name] == null ? null : (labels?.get(Number(row[field.name])) ?? row[field.name])) };
  }
  return { header: field.label, kind, width, key: field.name };
}

/** A human hint of what a column accepts, for the template. */
export function formatHint(field: FieldDef): string {
  switch (field.kind) {
    case 'date':
      return '日期，如 2024-01-31';
    case 'month':
      return '月份，如 2024-01';
    case 'money':
      return '金额（元），最多两位小数';
    case 'ratio':
      return '比例，如 0.08 或 8%';
    case 'int':
      return '整数';
    case 'bool':
      return '是 / 否';
    case 'idCard':
      return '18位身份证号（请设置为文本格式）';
    case 'phone':
      return '电话号码';
    case 'email':
      return '邮箱地址';
    case 'ref':
      return '填写名称';
    default:
      return field.maxLength ? `文本，最多${field.maxLength}个字符` : '文本';
  }
}
