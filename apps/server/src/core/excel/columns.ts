import type { CodedList, CodedMessage } from '@app/shared/errors/catalogue';
import type { CellReader, FieldDef, ResourceDef } from '@app/shared/resource';
import { excelHint, isLinkField, kindOf } from '@app/shared/resource';
import {
  cellText,
  foldCell,
  foldWidth,
  labelWith,
  cleanAmountText,
  digitLossMessage,
  excelSerialToDate,
  isEmptyCell,
  parseBoolCell,
  parseDateText,
  parseMonthText,
  ratioCell,
  roundNoise,
  textFieldCell,
} from './cells.ts';
import type { CellValue } from './types.ts';
import type { XlsxColumn } from './writeXlsx.ts';

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
  // link-table fields (refMany) are exported as labels but not imported: the bulk insert writes columns only
  return exportFields(def).filter((f) => !f.readOnly && f.name !== 'id' && !isLinkField(f));
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

/** `digitLoss`: a number cell for a text field whose last digits Excel lost (imports count these rows apart). */
export type CellResult = { ok: true; value: unknown } | { ok: false; error: CodedMessage; digitLoss?: true };

const digitLoss = (field: FieldDef): CellResult => ({ ok: false, error: digitLossMessage(field.label), digitLoss: true });

/** A value that is not one of the dictionary's, with the first options as a hint where there are any. */
function notAnOption(label: string, value: string, labels: string[] | undefined): CodedMessage {
  if (!labels?.length) return { code: 'FIELD_NOT_OPTION', params: { label, value } };
  // the options are the dictionary's own labels (data, kept as they are); only the joining follows the language
  const options: CodedList = { list: labels.slice(0, 8), joiner: 'enumeration' };
  return labels.length > 8 ? { code: 'FIELD_NOT_OPTION_HINT_MORE', params: { label, value, options } } : { code: 'FIELD_NOT_OPTION_HINT', params: { label, value, options } };
}

/**
 * The raw field value of one cell, ready for `validateRecord` (which gives the type messages). Empty cells
 * are null. Dictionary labels and reference labels that do not exist are errors here. Text fields (and
 * dictionary and reference labels) take number cells only when exact: a number of 16 or more digits lost its
 * last digits in Excel and is refused (`digitLoss`), never stored as a wrong ID card or bank card.
 */
export function cellToFieldValue(field: FieldDef, cell: CellValue | undefined, ctx: CellContext): CellResult {
  if (cell === undefined || isEmptyCell(cell)) return { ok: true, value: null };
  const read = kindOf(field).excel.read;
  // full-width digits, letters and brackets are folded except in free text (names, notes), stored as typed
  const free = read === 'text' && FREE_TEXT_KINDS.has(field.kind);
  return CELL_READERS[read](field, free ? cell : foldCell(cell), ctx);
}

const FREE_TEXT_KINDS = new Set<string>(['string', 'text']);

/** A label -> value map with its keys folded (foldWidth), built once per map. */
const foldedMaps = new WeakMap<Map<string, unknown>, Map<string, unknown>>();
function lookupFolded<V>(map: Map<string, V> | undefined, text: string): V | undefined {
  if (!map) return undefined;
  const exact = map.get(text);
  if (exact !== undefined) return exact;
  let folded = foldedMaps.get(map) as Map<string, V> | undefined;
  if (!folded) {
    folded = new Map();
    for (const [k, v] of map) {
      const f = foldWidth(k).trim();
      if (!folded.has(f)) folded.set(f, v);
    }
    foldedMaps.set(map, folded);
  }
  return folded.get(foldWidth(text).trim());
}

/** One reader per `excel.read` of the kind registry. */
const CELL_READERS: Record<CellReader, (field: FieldDef, cell: CellValue, ctx: CellContext) => CellResult> = {
  money: (_f, cell) => ({ ok: true, value: typeof cell === 'number' ? roundNoise(cell, 2) : cleanAmountText(cellText(cell)) }),
  ratio: (_f, cell) => ({ ok: true, value: ratioCell(cell) }),
  int: (_f, cell) => ({ ok: true, value: typeof cell === 'number' ? roundNoise(cell, 0) : cellText(cell) }),
  date: (field, cell, ctx) => {
    if (typeof cell === 'number') {
      const d = excelSerialToDate(cell, ctx.date1904);
      return d ? { ok: true, value: d } : { ok: false, error: { code: 'FIELD_INVALID', params: { label: labelWith(field.label, '日期') } } };
    }
    const text = cellText(cell);
    return { ok: true, value: parseDateText(text) ?? text };
  },
  month: (field, cell, ctx) => {
    if (typeof cell === 'number') {
      const d = excelSerialToDate(cell, ctx.date1904);
      // a bare 6-digit number such as 202401 is a month typed without separators
      if (Number.isInteger(cell) && cell >= 190001 && cell <= 220012) return { ok: true, value: parseMonthText(String(cell)) };
      return d ? { ok: true, value: d.slice(0, 7) } : { ok: false, error: { code: 'FIELD_INVALID', params: { label: labelWith(field.label, '月份') } } };
    }
    const text = cellText(cell);
    return { ok: true, value: parseMonthText(text) ?? text };
  },
  bool: (field, cell) => {
    const b = parseBoolCell(cell);
    return b === null ? { ok: false, error: { code: 'FIELD_YES_NO_CELL', params: { label: field.label } } } : { ok: true, value: b };
  },
  dict: (field, cell, ctx) => {
    const text = textFieldCell(cell);
    if (text === null) return digitLoss(field);
    const value = lookupFolded(ctx.dictValues.get(field.dict ?? ''), text);
    if (value === undefined) return { ok: false, error: notAnOption(field.label, text, ctx.dictLabels.get(field.dict ?? '')) };
    return { ok: true, value };
  },
  ref: (field, cell, ctx) => {
    const text = textFieldCell(cell);
    if (text === null) return digitLoss(field);
    const id = lookupFolded(ctx.refIds.get(field.name), text);
    if (id === undefined) return { ok: false, error: { code: 'FIELD_REF_MISSING', params: { label: field.label, value: text } } };
    return { ok: true, value: id };
  },
  text: (field, cell) => {
    const text = textFieldCell(cell);
    return text === null ? digitLoss(field) : { ok: true, value: text };
  },
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
  const { cell: kind, width, read } = kindOf(field).excel;
  if (read === 'dict') {
    const labels = lookups.dictLabelOf.get(field.dict ?? '');
    return { header: field.label, kind, width, value: (row) => (row[field.name] == null ? null : (labels?.get(String(row[field.name])) ?? row[field.name])) };
  }
  if (read === 'ref') {
    const labels = lookups.refLabelOf.get(field.name);
    return { header: field.label, kind, width, value: (row) => (row[field.name] == null ? null : (labels?.get(Number(row[field.name])) ?? row[field.name])) };
  }
  if (isLinkField(field)) {
    const labels = lookups.refLabelOf.get(field.name);
    const text = (items: unknown) => (Array.isArray(items) ? items.map((x: { id: number }) => labels?.get(Number(x.id)) ?? String(x.id)).join(',') : null);
    return { header: field.label, kind, width, value: (row) => text(row[field.name]) };
  }
  return { header: field.label, kind, width, key: field.name };
}

/** A human hint of what a column accepts, for the template (the kind registry's). */
export const formatHint = excelHint;
