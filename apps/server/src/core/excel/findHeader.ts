import { CodedError } from '../errors.ts';
import { cellText, isEmptyCell } from './cells.ts';
import type { SheetRow } from './types.ts';

/**
 * Where the header is (issue 14 X2). Clerks put a title row ("2026年3月员工花名册", often merged across the
 * sheet), a group-header row ("基本信息 | 社保基数", merged over its columns) or blank rows above the column
 * names. The header is the first row, among the first HEADER_SEARCH_ROWS rows of the sheet, that names every
 * required column; rows above it are skipped and every row keeps its real Excel row number. When no row
 * qualifies the message names the row that came closest (or the first row read) and why it is not a header.
 */

export const HEADER_SEARCH_ROWS = 20;

/** Thrown when no header is found: FILE_NO_DATA, IMPORT_COLUMNS_MISSING or IMPORT_HEADER_*, for the user. */
export class HeaderNotFoundError extends CodedError {}

interface Field {
  name: string;
  label: string;
}

const preview = (r: SheetRow) => {
  const texts = [...new Set(r.cells.map((c) => cellText(c ?? null).trim()).filter(Boolean))];
  const joined = texts.slice(0, 5).join('、');
  return joined.length > 40 ? `${joined.slice(0, 40)}…` : `${joined}${texts.length > 5 ? '…' : ''}`;
};

/**
 * Reads rows from `iterator` until the header row and returns it (the iterator then stands on the first row
 * below it). `fieldOf` maps a header text to its field; `required` are the columns the file must name.
 * Throws HeaderNotFoundError (FILE_NO_DATA, 文件中没有数据, when the sheet has no non-empty row at all).
 */
export async function findHeaderRow<F extends Field>(
  iterator: AsyncIterator<SheetRow>,
  fieldOf: (text: string) => F | undefined,
  required: readonly F[],
): Promise<SheetRow> {
  let best: { row: SheetRow; matched: F[]; missing: F[] } | undefined;
  let first: SheetRow | undefined;
  for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
    const r = n.value;
    if (r.row > HEADER_SEARCH_ROWS && first) break;
    if (!r.cells.some((c) => !isEmptyCell(c))) continue;
    first ??= r;
    const matched = new Map<string, F>();
    for (const c of r.cells) {
      const text = cellText(c ?? null).trim();
      const f = text ? fieldOf(text) : undefined;
      if (f) matched.set(f.name, f);
    }
    const missing = required.filter((f) => !matched.has(f.name));
    if (matched.size && !missing.length) return r;
    if (matched.size && (!best || matched.size > best.matched.length)) best = { row: r, matched: [...matched.values()], missing };
    if (r.row > HEADER_SEARCH_ROWS) break;
  }
  if (!first) throw new HeaderNotFoundError('FILE_NO_DATA');
  const labels = (fields: readonly F[]) => fields.map((f) => f.label).join('、');
  // the first row read names some columns but not all: the plain message says everything
  if (best?.row === first) throw new HeaderNotFoundError('IMPORT_COLUMNS_MISSING', { labels: labels(best.missing) });
  if (best) {
    // more than ten recognised columns end the list with 等 ("and others"): a code of its own
    const code = best.matched.length > 10 ? 'IMPORT_HEADER_AT_ROW_MORE' : 'IMPORT_HEADER_AT_ROW';
    throw new HeaderNotFoundError(code, { labels: labels(best.missing), row: best.row.row, matched: labels(best.matched.slice(0, 10)) });
  }
  throw new HeaderNotFoundError('IMPORT_HEADER_NOT_FOUND', { max: HEADER_SEARCH_ROWS, row: first.row, preview: preview(first), labels: labels(required.slice(0, 5)) });
}
