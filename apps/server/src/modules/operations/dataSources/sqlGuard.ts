/**
 * What a SQL data source may run: one read-only query. The database user a client gives us may well have
 * write rights, so this check is the first of two guards; the second is the read-only transaction every read
 * runs in (sqlSource.ts), which the server itself enforces whatever slipped through here.
 *
 * A read-only transaction does not stop the server's own file, network and admin functions (pg_read_file,
 * lo_export, dblink, LOAD_FILE…), which a privileged account may call (finding N9): those are refused by name
 * wherever a call to them stands, quoted or not, schema-qualified or not, with comments before the parenthesis.
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

/**
 * Functions that read or write the database host's files, reach the network, run a query given as text (which
 * this guard never saw), sleep or lock, or change and reveal server settings: nothing a read of rows needs.
 * Lower case; matched when the name stands before `(` (so a column `lo_price` or a table `sys_user` still reads).
 */
const REFUSED_FUNCTIONS = new Set([
  // PostgreSQL: server files and programs
  'pg_read_file',
  'pg_read_binary_file',
  'pg_stat_file',
  'pg_current_logfile',
  'pg_logdir_ls',
  'pg_import_system_collations',
  // PostgreSQL: settings, signals, backups, replication
  'set_config',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_rotate_logfile_old',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_signal_backend',
  'pg_promote',
  'pg_switch_wal',
  'pg_switch_xlog',
  'pg_create_restore_point',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_backup_start',
  'pg_backup_stop',
  'pg_notify',
  'pg_logical_emit_message',
  'pg_drop_replication_slot',
  'pg_copy_physical_replication_slot',
  'pg_copy_logical_replication_slot',
  'pg_create_physical_replication_slot',
  'pg_create_logical_replication_slot',
  // PostgreSQL: a query given as text runs unchecked
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'ts_stat',
  'ts_rewrite',
  // PostgreSQL large objects (lo_import / lo_export reach server files)
  'loread',
  'lowrite',
  // MySQL / MariaDB: server files, user-defined programs, sleeping and locks
  'load_file',
  'sys_exec',
  'sys_eval',
  'sys_get',
  'sys_set',
  'lib_mysqludf_sys_info',
  'sleep',
  'benchmark',
  'get_lock',
  'release_lock',
  'release_all_locks',
  'is_free_lock',
  'is_used_lock',
  'master_pos_wait',
  'source_pos_wait',
  'master_gtid_wait',
]);

/** Families refused by prefix: file reads, directory listings, adminpack file writes, large objects, dblink, sleeping, advisory locks, replication origins. */
const REFUSED_FUNCTION_PREFIXES = ['pg_read_', 'pg_ls_', 'pg_file_', 'lo_', 'dblink', 'pg_sleep', 'pg_advisory', 'pg_try_advisory', 'pg_replication_origin'];

/**
 * Relations that hold password hashes or the server's configuration files (PostgreSQL), refused wherever named.
 * (MySQL's are all in the `mysql` schema, refused as a qualifier below.)
 */
const REFUSED_RELATIONS = new Set(['pg_shadow', 'pg_authid', 'pg_user_mapping', 'pg_user_mappings', 'pg_hba_file_rules', 'pg_ident_file_mappings', 'pg_file_settings', 'pg_largeobject']);

/** Settings `current_setting()` may read: what a report could want; paths, libraries and commands stay hidden. */
const READABLE_SETTINGS = new Set([
  'transaction_read_only',
  'transaction_isolation',
  'timezone',
  'datestyle',
  'intervalstyle',
  'client_encoding',
  'server_encoding',
  'server_version',
  'server_version_num',
  'lc_monetary',
  'lc_numeric',
  'lc_time',
  'search_path',
  'statement_timeout',
  'default_transaction_read_only',
  'extra_float_digits',
]);

function refusedFunction(name: string): boolean {
  return REFUSED_FUNCTIONS.has(name) || REFUSED_FUNCTION_PREFIXES.some((p) => name.startsWith(p));
}

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
  const { words, tokens, statements } = scan(text, kind);
  if (statements > 1) throw new QueryRefused('只能执行一条查询语句（不能包含多条语句）');
  const first = words[0];
  if (first !== 'SELECT' && first !== 'WITH') throw new QueryRefused('只允许 SELECT 查询（或 WITH … SELECT）');
  if (first === 'WITH' && !words.includes('SELECT')) throw new QueryRefused('只允许 SELECT 查询（或 WITH … SELECT）');
  const refused = words.find((w) => REFUSED_WORDS.has(w));
  if (refused) throw new QueryRefused(`查询语句不能包含 ${refused}：数据源只能读取数据`);
  if (words.includes('FOR') && /\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i.test(stripQuoted(text))) {
    throw new QueryRefused('查询语句不能加锁（FOR UPDATE / FOR SHARE）');
  }
  checkServerFunctions(tokens, kind);
  return text.replace(/;\s*$/, '');
}

const SERVER_FUNCTION_REFUSED = (name: string) => `查询语句不能调用 ${name}：数据源只读取数据行，不能读取数据库服务器的文件、访问网络或执行管理操作`;

/**
 * Refuses calls of the functions above, the relations above, the `mysql` system schema, and `current_setting`
 * of anything but a listed setting. A name is a bare word or a quoted name (`"pg_read_file"`, `` `load_file` ``)
 * in any case; comments and blanks never separate tokens here, and a schema (`pg_catalog.`) does not hide it.
 */
function checkServerFunctions(tokens: Token[], kind: 'mysql' | 'postgres'): void {
  const isName = (t: Token | undefined): t is Token => t?.type === 'word' || t?.type === 'ident';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!isName(t)) continue;
    const name = t.text.toLowerCase();
    const next = tokens[i + 1];
    if (REFUSED_RELATIONS.has(name)) throw new QueryRefused(`查询语句不能读取 ${name}：其中是数据库账号或服务器配置`);
    if (kind === 'mysql' && name === 'mysql' && next?.type === 'punct' && next.text === '.') throw new QueryRefused('查询语句不能读取 mysql 系统库：其中是数据库账号和权限');
    if (next?.type !== 'punct' || next.text !== '(') continue;
    if (refusedFunction(name)) throw new QueryRefused(SERVER_FUNCTION_REFUSED(name));
    if (name === 'current_setting') {
      const arg = tokens[i + 2];
      const after = tokens[i + 3];
      const plain = arg?.type === 'string' && after?.type === 'punct' && (after.text === ')' || after.text === ',');
      if (!plain || !READABLE_SETTINGS.has(arg.text.toLowerCase())) throw new QueryRefused(`查询语句不能读取该服务器设置：current_setting 只能读取 ${[...READABLE_SETTINGS].join('、')}`);
    }
  }
}

/** A token of a statement: a bare word, a quoted name (its text unquoted), a literal, or `(` `)` `.` `,`. */
interface Token {
  type: 'word' | 'ident' | 'string' | 'punct';
  text: string;
}

/**
 * The bare words (upper case) of a statement, its tokens and how many statements it holds, skipping comments;
 * string literals, quoted identifiers and (PostgreSQL) dollar-quoted strings are tokens of their own, so no word
 * check looks inside them. An unterminated literal or comment is refused: what the server would make of it is
 * not what we checked.
 */
function scan(text: string, kind: 'mysql' | 'postgres'): { words: string[]; tokens: Token[]; statements: number } {
  const words: string[] = [];
  const tokens: Token[] = [];
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
    // MySQL reads `--` as a comment only before a blank or a control character (`1--1` is arithmetic)
    const dashComment = c === '-' && next === '-' && (kind === 'postgres' || i + 2 >= n || text.charCodeAt(i + 2) <= 32);
    if (dashComment || (c === '#' && kind === 'mysql')) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      // MySQL runs the text of /*! … */ comments, MariaDB that of /*M! … */ too: refuse them rather than guess
      if (kind === 'mysql' && (text[i + 2] === '!' || (text[i + 2]?.toUpperCase() === 'M' && text[i + 3] === '!'))) throw new QueryRefused('查询语句不能包含 /*! */ 可执行注释');
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw unterminated();
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(text, i, c);
      if (end < 0) throw unterminated();
      tokens.push({ type: c === "'" ? 'string' : 'ident', text: text.slice(i + 1, end - 1).split(c + c).join(c) });
      i = end;
      continue;
    }
    if (c === '$' && kind === 'postgres') {
      const tag = /^\$[A-Za-z_]?\w*\$/.exec(text.slice(i));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        if (end < 0) throw unterminated();
        tokens.push({ type: 'string', text: text.slice(i + tag[0].length, end) });
        i = end + tag[0].length;
        continue;
      }
    }
    const word = /^[A-Za-z_][\w$]*/.exec(text.slice(i, i + 128));
    if (word) {
      // PostgreSQL's U&"…" names and U&'…' strings spell letters as escapes (with any UESCAPE character): what
      // they name cannot be checked here
      if (kind === 'postgres' && /^u$/i.test(word[0]) && text[i + 1] === '&') throw new QueryRefused('查询语句不能包含 U& 转义的名称或字符串');
      words.push(word[0].toUpperCase());
      tokens.push({ type: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    if (c === '(' || c === ')' || c === '.' || c === ',') tokens.push({ type: 'punct', text: c });
    i++;
  }
  return { words, tokens, statements };
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
