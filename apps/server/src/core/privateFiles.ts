import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR and the SQLite database hold every salary, ID card and password hash: no other local account may
 * read them (N10). DATA_DIR is 0700 and the database files 0600, whatever the umask; a directory or file found
 * looser (made by an older release, or by hand) is tightened at start, with one line saying so.
 */

export type Report = (line: string) => void;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Give `target` exactly `mode` when it grants anything more (group or others bits); says so once. */
function tighten(target: string, mode: number, report: Report): void {
  const current = fs.statSync(target).mode & 0o777;
  if ((current & ~mode) === 0) return;
  fs.chmodSync(target, mode);
  report(`权限已收紧 / permissions tightened: ${target} ${octal(current)} -> ${octal(mode)}`);
}

/** The directory, created 0700 when missing, tightened to 0700 when looser. */
export function ensurePrivateDir(dir: string, report: Report): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700, report);
}

/**
 * The SQLite database file, created empty with 0600 before SQLite opens it (SQLite gives its -wal, -shm and
 * journal files the mode of the database file), or tightened to 0600 with whatever side files exist.
 */
export function ensurePrivateDatabaseFile(file: string, report: Report): void {
  const resolved = path.resolve(file);
  // 'a' creates the file if missing and never truncates it; the mode applies only to a file created here
  fs.closeSync(fs.openSync(resolved, 'a', 0o600));
  for (const f of [resolved, `${resolved}-wal`, `${resolved}-shm`, `${resolved}-journal`]) {
    if (fs.existsSync(f)) tighten(f, 0o600, report);
  }
}
