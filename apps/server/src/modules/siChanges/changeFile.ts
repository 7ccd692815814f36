import { fenText } from '@app/shared/payout/bankLayout';
import { SI_CHANGE_KIND_LABELS, SI_CHANGE_TARGETS, type SiChangeColumn, type SiChangeField, type SiChangeKind, type SiChangeLayout } from '@app/shared/socialInsurance/siChangeLayout';
import { checkLayoutCells, type LayoutCell, type LayoutCellProblem, layoutFileName, writeLayoutFile } from '../../core/excel/layoutFile.ts';
import { type ChangePerson, mainBase } from './changes.ts';

/**
 * A 增减员 list in a 社保模板's layout: each column's field of the person, formatted as the template says (months,
 * dates, yuan with 2 decimals or whole yuan, ratios) and mapped to the bureau's words, then written by the one
 * template-file writer the bank files use (core/excel/layoutFile.ts). Pure: no database.
 */

export interface ChangeFileInfo {
  companyName: string;
  month: string;
  kind: SiChangeKind;
  /** census-type values (rate dictionary names) to their labels (本城, 外农 …): what a column shows unmapped */
  censusLabels: Record<string, string>;
}

function monthText(yyyyMm: string, format: SiChangeColumn['format']): string {
  if (!/^\d{4}-\d{2}$/.test(yyyyMm)) return yyyyMm;
  if (format === 'yyyyMM') return yyyyMm.replace('-', '');
  if (format === 'yyyyMMdd') return `${yyyyMm.replace('-', '')}01`;
  if (format === 'yyyy-MM-dd') return `${yyyyMm}-01`;
  return yyyyMm;
}

function dateText(date: string | null, format: SiChangeColumn['format']): string {
  if (!date) return '';
  const d = date.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return date;
  if (format === 'yyyyMMdd') return d.replace(/-/g, '');
  if (format === 'yyyyMM') return d.slice(0, 7).replace('-', '');
  if (format === 'yyyy-MM') return d.slice(0, 7);
  return d;
}

/** A base in fen as a number cell: yuan with 2 decimals (default) or whole yuan rounded half up. */
function moneyCell(fen: number | null, format: SiChangeColumn['format']): LayoutCell {
  if (fen === null) return '';
  if (format === 'integer') {
    const yuan = fen >= 0 ? Math.floor((fen + 50) / 100) : -Math.floor((-fen + 50) / 100);
    return { number: yuan, text: String(yuan) };
  }
  const text = fenText(fen);
  return { number: Number(text), text, format: '0.00' };
}

function ratioText(ratio: number | null, format: SiChangeColumn['format']): string {
  if (ratio === null) return '';
  // 0.12 → "12%": rounded to 4 places first, so binary fractions (0.07 × 100 = 7.000000000000001) print as typed
  return format === 'percent' ? `${Number((ratio * 100).toFixed(4))}%` : String(Number(ratio.toFixed(6)));
}

function rawValue(field: SiChangeField, p: ChangePerson, seq: number, layout: SiChangeLayout, col: SiChangeColumn): LayoutCell {
  const f = col.format;
  switch (field) {
    case 'seq':
      return String(seq);
    case 'name':
      return p.staffName;
    case 'idNumber':
      return p.idCard;
    case 'idType':
      return '居民身份证';
    case 'sex':
      return p.sex ?? '';
    case 'born':
      return dateText(p.born, f);
    case 'phone':
      return p.phone ?? '';
    case 'nation':
      return p.nation ?? '';
    case 'education':
      return p.education ?? '';
    case 'address':
      return p.address ?? '';
    case 'dept':
      return p.dept ?? '';
    case 'job':
      return p.job ?? '';
    case 'censusType':
      return p.censusType ?? '';
    case 'startMonth':
      return monthText(p.startMonth, f);
    case 'reason':
      return p.reason;
    case 'yanglaoBase':
    case 'yiliaoBase':
    case 'shiyeBase':
    case 'gongshangBase':
    case 'shengyuBase':
    case 'gjjBase':
      return moneyCell(p.now.bases[field], f);
    case 'gjjRatio':
      return ratioText(p.now.gjjRatio, f);
    case 'oldBase':
      return moneyCell(p.before ? p.before.bases[mainBase(layout.target)] : null, f);
    case 'newBase':
      return moneyCell(p.now.bases[mainBase(layout.target)], f);
    case 'personalNo':
      return '';
    case 'unitNo':
      return layout.unitNo;
    case 'unitName':
      return layout.unitName;
  }
}

function cellOf(col: SiChangeColumn, p: ChangePerson, seq: number, layout: SiChangeLayout, censusLabels: Record<string, string>): LayoutCell {
  if (!col.field) return col.value ?? '';
  const cell = rawValue(col.field, p, seq, layout, col);
  if (typeof cell !== 'string') return cell;
  if (col.map && cell in col.map) return col.map[cell];
  // census types unmapped: their labels, not the rate dictionary names they are stored as
  if (col.field === 'censusType') return censusLabels[cell] ?? cell;
  return cell;
}

function fill(line: string, layout: SiChangeLayout, info: ChangeFileInfo, count: number): string {
  const values: Record<string, string> = {
    companyName: info.companyName,
    month: info.month,
    kind: SI_CHANGE_KIND_LABELS[info.kind],
    count: String(count),
    unitNo: layout.unitNo,
    unitName: layout.unitName,
    region: layout.region,
    target: SI_CHANGE_TARGETS[layout.target],
  };
  return line.replace(/\{([A-Za-z]+)\}/g, (m, name: string) => (name in values ? values[name] : m));
}

function specOf(layout: SiChangeLayout, info: ChangeFileInfo, count: number) {
  return {
    fileType: layout.fileType,
    encoding: layout.encoding,
    delimiter: layout.fileType === 'csv' ? ',' : '',
    titleRow: layout.titleRow,
    headerLines: layout.headerLines.map((l) => fill(l, layout, info, count)),
    trailerLines: [],
    columns: layout.columns[info.kind],
  };
}

const cellsOf = (layout: SiChangeLayout, info: ChangeFileInfo, people: readonly ChangePerson[]) =>
  people.map((p, i) => layout.columns[info.kind].map((c) => cellOf(c, p, i + 1, layout, info.censusLabels)));

/** Cells the template's encoding cannot hold (csv only; spreadsheets hold any text). */
export function changeFileProblems(layout: SiChangeLayout, info: ChangeFileInfo, people: readonly ChangePerson[]): LayoutCellProblem[] {
  return checkLayoutCells(specOf(layout, info, people.length), cellsOf(layout, info, people));
}

/** The list's file: bytes, extension and name (from the template's pattern). */
export function writeChangeFile(layout: SiChangeLayout, info: ChangeFileInfo, people: readonly ChangePerson[]): { bytes: Buffer; fileName: string; extension: string } {
  const { bytes, extension } = writeLayoutFile(specOf(layout, info, people.length), cellsOf(layout, info, people), SI_CHANGE_KIND_LABELS[info.kind]);
  return { bytes, extension, fileName: layoutFileName(fill(layout.fileNamePattern, layout, info, people.length), extension) };
}
