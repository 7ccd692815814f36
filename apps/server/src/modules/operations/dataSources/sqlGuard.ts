/**
 * What a SQL data source may run: one read-only query. The database user a client gives us may well have
 * write rights, so this check is the first of two guards; the second is the read-only transaction every read
 * runs in (sqlSource.ts), which the server itself enforces whatever slipped through here.
 */

/** Words that make a statement something other than a plain read, wherever they stand outside quotes and comments. */
const REFUSED_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'REPLACE',
  'UPSERT',
  'DROP',
  'ALTER',
  'CREATE',
  'TRUNCATE',
  'RENAME',
  'GRANT',
  'REVOKE',
  'CALL',
  'EXEC',
  'EXECUTE',
  'DO',
  'LOAD',
  'HANDLER',
  'LOCK',
  'UNLOCK',
  'SET',
  'COPY',
  'VACUUM',
  'ANALYZE',
  'INTO', // SELECT … INTO OUTFILE / DUMPFILE / a variable / a new table
  'OUTFILE',
  'DUMPFILE',
  'PREPARE',
  'DEALLOCATE',
  'LISTEN',
  'NOTIFY',
  'SHUTDOWN',
  'KILL',
]);

/** A single table name (`staff`, `hr.staff`) is read as `SELECT * FROM` it. */
const TABLE_NAME = /^[A-Za-z_][\w$]{0,63}(\.[A-Za-z_][\w$]{0,63})?$/;

export class QueryRefused extends Error {}

/**
 * The statement to run for a source's `query`: a table name becomes `SELECT * FROM <name>` (quoted for the
 * dialect); otherwise one `SELECT` or `WITH … SELECT`, at most a trailing `;`, none of the words above outside
 * string literals, quoted names and comments. Throws QueryRefused with the user's message.
 */
export function readOnlyStatement(query: string, kind: 'mysql' | 'postgres'): string {
  const text = query.trim();
  if (!text) throw new QueryRefused('请填写查询语句或表名');
  if (text.length > 20_000) throw new QueryRefused('查询语句不能超过20000个字符');
  if (TABLE_NAME.test(text)) {
    const q = kind === 'mysql' ? '`' : '"';
    return `SELECT * FROM ${text.split('.').map((p) => `${q}${p}${q}`).join('.')}`;
  }
  // Whether a backslash escapes a quote depends on server settings (MySQL's NO_BACKSLASH_ESCAPES, PostgreSQL's
  // E'' strings): where a literal ends must not be a guess, so backslashes are not accepted at all.
  if (text.includes('\\')) throw new QueryRefused('查询语句不能包含反斜杠 \\');
  const { words, statements } = scan(text, kind);
  if (statements > 1) throw new QueryRefused('只能执行一条查询语句（不能包含多条语句）');
  const first = words[0];
  if (first !== 'SELECT' && first !== 'WITH') throw new QueryRefused('只允许 SELECT 查询（或 WITH … SELECT）');
  if (first === 'WITH' && !words.includes('SELECT')) throw new QueryRefused('只允许 SELECT 查询（或 WITH … SELECT）');
  const refused = words.find((w) => REFUSED_WORDS.has(w));
  if (refused) throw new QueryRefused(`查询语句不能包含 ${refused}：数据源只能读取数据`);
  if (words.includes('FOR') && /\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i.test(stripQuoted(text))) {
    throw new QueryRefused('查询语句不能加锁（FOR UPDATE / FOR SHARE）');
  }
  return text.replace(/;\s*$/, '');
}

/**
 * The bare words (upper case) of a statement and how many statements it holds, skipping string literals,
 * quoted identifiers, comments and (PostgreSQL) dollar-quoted strings. An unterminated literal or comment is
 * refused: what the server would make of it is not what we checked.
 */
function scan(text: string, kind: 'mysql' | 'postgres'): { words: string[]; statements: number } {
  const words: string[] = [];
  let statements = 1;
  let pendingSemicolon = false;
  let i = 0;
  const n = text.length;
  const unterminated = () => new QueryRefused('查询语句中有未结束的引号或注释');
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (pendingSemicolon) {
      // something other than blanks after a ';': a second statement
      statements++;
      pendingSemicolon = false;
    }
    if (c === ';') {
      pendingSemicolon = true;
      i++;
      continue;
    }
    if ((c === '-' && next === '-') || (c === '#' && kind === 'mysql')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      // MySQL runs the text of /*! … */ comments: refuse them rather than guess
      if (kind === 'mysql' && text[i + 2] === '!') throw new QueryRefused('查询语句不能包含 /*! */ 可执行注释');
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw unterminated();
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      i = skipQuoted(text, i, c);
      if (i < 0) throw unterminated();
      continue;
    }
    if (c === '$' && kind === 'postgres') {
      const tag = /^\$[A-Za-z_]?\w*\$/.exec(text.slice(i));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        if (end < 0) throw unterminated();
        i = end + tag[0].length;
        continue;
      }
    }
    const word = /^[A-Za-z_][\w$]*/.exec(text.slice(i, i + 128));
    if (word) {
      words.push(word[0].toUpperCase());
      i += word[0].length;
      continue;
    }
    i++;
  }
  return { words, statements };
}

/** Index after a quoted run starting at `start`; -1 when it never ends. A doubled quote stands for itself. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/** The text with quoted runs blanked (for the few checks that need neighbouring words). */
function stripQuoted(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(text, i, c);
      out += ' ';
      i = end < 0 ? text.length : end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
