import { describe, expect, it } from 'vitest';
import { insertReturningId, nowIso } from '../src/core/db.ts';
import { markInterruptedImports } from '../src/core/excel/importLog.ts';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, multipart, sheetRows, uniq, workbook } from './dispatch-fixtures.ts';

// Finding S8: an import cut off half way (chunks of 500 committed) leaves an operation-log row saying 导入中断
// and what was written; importing the same file again continues it without duplicates.

const session = adminApp();

const importLogs = () => session.app.ctx.db.selectFrom('sys_log').select(['description', 'params', 'exception_detail']).where('description', 'like', '导入%：%').execute();
const companies = (prefix: string) => session.app.ctx.db.selectFrom('accounts_company').select('company_name').where('company_name', 'like', `${prefix}%`).execute();

/** A company sheet of `n` rows named `<prefix>000`...: a real company exported, its row repeated under new names. */
async function companySheet(prefix: string, n: number): Promise<unknown[][]> {
  const sample = await createCompany(session.app, session.token, { companyName: `${prefix}样本` });
  const res = await session.app.inject({ method: 'GET', url: `/api/export/accountsCompany?companyName=${encodeURIComponent(`${prefix}样本`)}`, headers: bearer(session.token) });
  const [header, row] = sheetRows(res.rawPayload);
  const nameAt = header.indexOf('单位名称');
  await session.app.ctx.db.deleteFrom('accounts_company').where('id', '=', Number(sample.id)).execute();
  return [header, ...Array.from({ length: n }, (_v, i) => row.map((c, j) => (j === nameAt ? `${prefix}${String(i).padStart(3, '0')}` : c)))];
}

describe('an interrupted import (S8)', () => {
  it('a finished import leaves no progress row; its own operation-log row records it', async () => {
    const prefix = uniq('完成');
    const mp = multipart(workbook(await companySheet(prefix, 1)), '单位.xlsx');
    const res = await session.app.inject({ method: 'POST', url: '/api/import/accountsCompany', headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(await importLogs()).toEqual([]);
  });

  it('stopped after the first chunk: 导入中断 with the rows written, and the same file imported again continues without duplicates', async () => {
    const prefix = uniq('中断');
    const file = workbook(await companySheet(prefix, 700));
    // the database goes away while the second chunk is written: the first 500 rows are committed
    const db = session.app.ctx.db as unknown as { transaction: () => unknown };
    const original = db.transaction.bind(db);
    let transactions = 0;
    db.transaction = () => {
      if (++transactions >= 2) throw new Error('connection lost');
      return original();
    };
    let cut: Awaited<ReturnType<typeof session.app.inject>>;
    try {
      const mp = multipart(file, '单位.xlsx');
      cut = await session.app.inject({ method: 'POST', url: '/api/import/accountsCompany', headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
    } finally {
      db.transaction = original;
    }
    expect(cut.statusCode).toBe(500);
    expect(await companies(prefix)).toHaveLength(500);
    const [log] = await importLogs();
    expect(log.description).toBe(`导入中断：单位（单位.xlsx），已写入500行（新增500，更新0）；重新导入同一文件可继续（已写入的行会更新，不会重复）`);
    expect(log.exception_detail).toBe('connection lost');
    await session.app.ctx.db.deleteFrom('sys_log').where('description', 'like', '导入中断：%').execute();

    // the same file through the screen's route: 500 rows updated (matched by 单位名称), 200 added, none twice
    const mp = multipart(file, '单位.xlsx');
    const again = await session.app.inject({ method: 'POST', url: '/api/import/accountsCompany', headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ total: 700, inserted: 200, updated: 500, failed: 0 });
    expect(await companies(prefix)).toHaveLength(700);
    expect(await importLogs()).toEqual([]);
  });

  it('at the next start, the progress row of a process that is gone becomes 导入中断', async () => {
    const params = { resource: 'accountsStaff', label: '员工', file: '员工.xlsx', inserted: 1000, updated: 500, failed: 3, instance: 'gone', at: nowIso(), resumable: true };
    await insertReturningId(session.app.ctx.db, session.app.ctx.dialect, 'sys_log', { log_type: 'INFO', username: 'admin', description: '导入进行中：员工（员工.xlsx）', method: 'POST /api/import/accountsStaff', params: JSON.stringify(params), request_ip: '127.0.0.1', browser: 'x', time: 0, exception_detail: null, create_time: nowIso() });
    // several instances (Redis): another instance's import that moved a moment ago may still be running
    expect(await markInterruptedImports(session.app.ctx.db, false)).toBe(0);
    // one instance: no other process can be importing
    expect(await markInterruptedImports(session.app.ctx.db, true)).toBe(1);
    const [log] = (await importLogs()).filter((l) => l.description?.includes('员工.xlsx'));
    expect(log.description).toBe('导入中断：员工（员工.xlsx），已写入1500行（新增1000，更新500）；重新导入同一文件可继续（已写入的行会更新，不会重复）');
  });
});
