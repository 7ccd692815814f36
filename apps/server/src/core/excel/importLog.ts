import crypto from 'node:crypto';
import type { Db } from '../db.ts';
import { insertReturningId, nowIso } from '../db.ts';
import type { DialectName } from '../db.ts';

/**
 * What an operator sees of an import that did not finish (finding S8). The generic import commits its rows in
 * chunks of 500, so a process killed half way leaves the chunks written before it. While an import runs, an
 * operation-log row "导入进行中：…" carries the counts written so far (updated after every chunk); a finished
 * import removes it (the request's own log row records the import); an import that failed after writing, or
 * whose process died (found at the next start), is rewritten as "导入中断：…，已写入N行…". Importing the same
 * file again continues it: rows are matched by the resource's import key and updated, not added twice.
 */

const RUNNING = '导入进行中：';
const INTERRUPTED = '导入中断：';
/** This process; a log row of another process that has not moved for this long is taken as interrupted. */
const INSTANCE = crypto.randomBytes(6).toString('hex');
const STALE_MS = 10 * 60_000;

export interface ImportCounts {
  inserted: number;
  updated: number;
  failed: number;
}

interface ImportLogParams extends ImportCounts {
  resource: string;
  file: string;
  instance: string;
  /** Last progress, ISO time. */
  at: string;
  /** How to continue: by import key (re-import updates) or not (re-import adds the written rows again). */
  resumable: boolean;
}

export interface ImportLogStart {
  label: string;
  resource: string;
  file: string;
  resumable: boolean;
  username: string | null;
  ip: string;
  browser: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** A file name as the user named it (some clients send it percent-encoded). */
function fileNameOf(raw: string): string {
  try {
    return /%[0-9A-F]{2}/i.test(raw) ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}
const describe = (prefix: string, p: ImportLogParams, label: string) => clip(`${prefix}${label}（${p.file}）`, 255);

/** Opens the progress row of an import; returns its id. */
export async function startImportLog(db: Db, dialect: DialectName, start: ImportLogStart): Promise<number> {
  const params: ImportLogParams = { resource: start.resource, file: clip(fileNameOf(start.file), 120), inserted: 0, updated: 0, failed: 0, instance: INSTANCE, at: nowIso(), resumable: start.resumable };
  return insertReturningId(db, dialect, 'sys_log', {
    log_type: 'INFO',
    username: start.username,
    description: describe(RUNNING, params, start.label),
    method: `POST /api/import/${start.resource}`,
    params: JSON.stringify({ ...params, label: start.label }),
    request_ip: start.ip,
    browser: clip(start.browser, 255),
    time: 0,
    exception_detail: null,
    create_time: nowIso(),
  });
}

/** Records the counts written so far (after each committed chunk). */
export async function updateImportLog(db: Db, id: number, counts: ImportCounts): Promise<void> {
  const row = await db.selectFrom('sys_log').select('params').where('id', '=', id).executeTakeFirst();
  if (!row) return;
  const params = { ...JSON.parse(String(row.params)), ...counts, at: nowIso() };
  await db.updateTable('sys_log').set({ params: JSON.stringify(params) }).where('id', '=', id).execute();
}

/** The import finished: its progress row goes (the request's own log row records it). */
export async function finishImportLog(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sys_log').where('id', '=', id).execute();
}

/** The import stopped with an error: "导入中断" with what was written, or nothing when nothing was. */
export async function failImportLog(db: Db, id: number, counts: ImportCounts, reason: string): Promise<void> {
  if (counts.inserted + counts.updated === 0) return finishImportLog(db, id);
  const row = await db.selectFrom('sys_log').select('params').where('id', '=', id).executeTakeFirst();
  if (!row) return;
  const params = { ...JSON.parse(String(row.params)), ...counts, at: nowIso() };
  await db
    .updateTable('sys_log')
    .set({ description: interruptedText(params), params: JSON.stringify(params), exception_detail: clip(reason, 2000) })
    .where('id', '=', id)
    .execute();
}

function interruptedText(p: ImportLogParams & { label?: string }): string {
  const written = p.inserted + p.updated;
  const how = p.resumable ? '重新导入同一文件可继续（已写入的行会更新，不会重复）' : '重新导入会再次添加已写入的行，请先删除它们或只导入其余的行';
  return clip(`${describe(INTERRUPTED, p, p.label ?? p.resource)}，已写入${written}行（新增${p.inserted}，更新${p.updated}）；${how}`, 255);
}

/**
 * At start: imports of a process that is gone are interrupted. Without Redis one instance serves the database,
 * so every running row is; with several instances, only rows of another instance quiet for STALE_MS.
 */
export async function markInterruptedImports(db: Db, singleInstance: boolean): Promise<number> {
  const rows = await db.selectFrom('sys_log').select(['id', 'params']).where('description', 'like', `${RUNNING}%`).execute();
  let n = 0;
  for (const r of rows) {
    let p: ImportLogParams & { label?: string };
    try {
      p = JSON.parse(String(r.params));
    } catch {
      continue;
    }
    const quiet = Date.now() - Date.parse(p.at) > STALE_MS;
    if (p.instance === INSTANCE || (!singleInstance && !quiet)) continue;
    await db.updateTable('sys_log').set({ description: interruptedText(p) }).where('id', '=', r.id).execute();
    n++;
  }
  return n;
}
