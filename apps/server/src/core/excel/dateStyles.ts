/**
 * Which cell styles of an .xlsx workbook display a number as a date. Excel stores a date as a serial number
 * and only the cell's number format (styles.xml: cellXfs -> numFmtId -> built-in id or numFmts formatCode)
 * says it is one; readers that ignore styles hand the client 45366 for 2024-03-15 (finding M6).
 */

/**
 * Built-in number formats that show dates (ECMA-376 18.8.30, plus the ids Excel uses for the CJK locales:
 * 27-36 and 50-58 are the 年/月/日 and era formats of zh/ja/ko workbooks). Pure time formats (18-21, 45-47)
 * are left out: a time of day is not a date.
 */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/**
 * A custom format code shows a date when, outside quoted text, escapes and [bracketed] parts (colours,
 * conditions, locales, elapsed time), it has a year, day or era token. Months alone ('m') are ambiguous with
 * minutes, so a format needs y, d or e; "General" is dropped first (its 'e' is no era).
 */
export function isDateFormatCode(code: string): boolean {
  const section = code.split(';')[0] ?? '';
  const bare = section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/General/gi, '')
    .replace(/_.|\*./g, '');
  return /[yde]/i.test(bare) && !/[#0?]/.test(bare.replace(/[.,]0+/g, ''));
}

/** The style indexes (the `s` of a cell) whose number format is a date. */
export function dateStyleIndexes(customFormats: Map<number, string>, cellXfNumFmts: number[]): Set<number> {
  const out = new Set<number>();
  cellXfNumFmts.forEach((id, index) => {
    const custom = customFormats.get(id);
    if (custom !== undefined ? isDateFormatCode(custom) : BUILTIN_DATE_FORMATS.has(id)) out.add(index);
  });
  return out;
}

/** The style index of a cell (`s` attribute), or 0 (the default style) when absent or malformed. */
export function styleIndex(attr: string | undefined): number {
  const n = attr === undefined ? 0 : Number(attr);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The time of day of a serial date's fraction as HH:mm:ss (rounded to the second), or null at midnight. */
export function serialTimeOfDay(serial: number): string | null {
  const seconds = Math.round((serial - Math.floor(serial)) * 86_400);
  if (seconds === 0 || seconds >= 86_400) return null;
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}
