/**
 * A database driver's error as a message users may read: the error's class (PostgreSQL SQLSTATE such as `22P02`,
 * mysql2 code such as `ER_ACCESS_DENIED_ERROR`) and the driver's generic first line, without the values it quotes.
 *
 * Servers quote the offending value in their messages (`invalid input syntax for type integer: "…"`,
 * `Truncated incorrect DOUBLE value: '…'`). Whatever a query computes can be made the offending value, so a quoted
 * value is a channel for data the rows would not show (finding N9: `cast(pg_read_file('/etc/passwd') as int)`
 * returned the file in the error). Everything between the first quote and the last quote of its kind is cut, so
 * a value with quotes of its own, or running over several lines, goes as a whole.
 */

const MAX_DETAIL = 300;

/** The message with each kind of quoted run (`"…"`, `'…'`, `` `…` ``) cut from its first opening quote to its last. */
export function withoutQuotedValues(message: string): string {
  let out = message;
  for (const q of ['"', "'", '`']) {
    // an opening quote follows no letter or digit: the apostrophe of "Can't connect" opens nothing
    const open = new RegExp(`(?<![\\p{L}\\p{N}])${q}`, 'u').exec(out);
    if (!open) continue;
    const start = open.index;
    const end = out.lastIndexOf(q);
    out = end > start ? `${out.slice(0, start)}${q}…${q}${out.slice(end + 1)}` : `${out.slice(0, start)}${q}…${q}`;
  }
  return out;
}

/** `<code> <first line without quoted values>`, at most 300 characters. */
export function driverMessage(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? `${e.code} ` : '';
  const text = withoutQuotedValues(String(e.message ?? err)).split('\n')[0];
  return `${code}${text}`.trim().slice(0, MAX_DETAIL);
}

/**
 * Did a database server answer? PostgreSQL errors carry a five-character SQLSTATE (`28P01`, `3D000`), mysql2's
 * server errors an `ER_` code. Everything else (refused, reset, timed out, a peer that does not speak the
 * protocol) is a failure to reach a database at all.
 */
export function fromDatabaseServer(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || code.startsWith('ER_'));
}
