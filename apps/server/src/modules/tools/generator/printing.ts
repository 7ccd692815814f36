/**
 * Every text of the generated files comes from someone else: the generator's settings, the database's table and
 * column names and comments (a hostile `COMMENT ON COLUMN` can carry anything). So nothing is printed raw (N7):
 * - into a string: JSON string quoting (every control character, quote and backslash escaped, and U+2028/2029,
 *   which end a line in older parsers), shown as a single-quoted literal like the project's own code;
 * - into a comment or the README: on one line, with `*` `/` never adjacent, so no text ends the comment;
 * - as an identifier: only what {@link isIdentifier} accepts (the routes refuse other column names).
 */
export function q(s: string): string {
  const json = JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `'${json.slice(1, -1).replace(/\\.|'/g, (m) => (m === '\\"' ? '"' : m === "'" ? "\\'" : m))}'`;
}

/** A text on one line that cannot close a block comment: line breaks become spaces, `*` + `/` become `* /`. */
export function commentText(s: string): string {
  // other control characters too: a comment is read by people, and a NUL or an ESC has no business there
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
  return s.replace(/[\r\n\u2028\u2029\u0085\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g, ' ').replace(/\*(?=\/)/g, '* ');
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
export const isIdentifier = (s: string) => IDENTIFIER.test(s);

/** A value as TypeScript source: strings quoted by {@link q}, keys as identifiers only when they are. */
export function printValue(v: unknown): string {
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(printValue).join(', ')}]`;
  if (v && typeof v === 'object') {
    return `{ ${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${isIdentifier(k) ? k : q(k)}: ${printValue(x)}`)
      .join(', ')} }`;
  }
  return 'null';
}
