import { dynamicDb } from '../src/core/db.ts';
import { describe, expect, it } from 'vitest';
import { markContractReminders } from '../src/modules/dispatch/contractReminders.ts';
import { adminApp, bearer, createTestApp } from './helpers.ts';
import { createCompany, createStaff, idCard, scopedUser, uniq } from './dispatch-fixtures.ts';

const session = adminApp();

const api = (method: 'GET' | 'POST', url: string, tk = session.token) => session.app.inject({ method, url, headers: bearer(tk) });
const setDates = (id: number, cols: Record<string, unknown>) => dynamicDb(session.app.ctx.db).updateTable('accounts_staff').set(cols).where('id', '=', id).execute();

describe('markContractReminders', () => {
  it('marks reached reminder dates 已提醒 and ended contracts 已到期, is idempotent, and logs each run', async () => {
    const c = await createCompany(session.app, session.token);
    const due = await createStaff(session.app, session.token, c.id, { idCard: idCard('1980-01-01', 1), contractStart: '2024-01-01', contractEnd: '2026-06-30', contractWarn: '2026-06-01' });
    const dueToday = await createStaff(session.app, session.token, c.id, { idCard: idCard('1980-01-01', 3), contractStart: '2024-01-01', contractEnd: '2026-07-10', contractWarn: '2026-06-10' });
    const later = await createStaff(session.app, session.token, c.id, { idCard: idCard('1980-01-01', 5), contractStart: '2024-01-01', contractEnd: '2027-01-01' });
    const ended = await createStaff(session.app, session.token, c.id, { idCard: idCard('1980-01-01', 7), contractStart: '2020-01-01', contractEnd: '2026-06-09' });
    const terminated = await createStaff(session.app, session.token, c.id, { idCard: idCard('1980-01-01', 9), contractStart: '2020-01-01', contractEnd: '2026-01-01', contractState: '已解除' });
    // the other rows of this database (other tests) are out of the way: run on a date before them all
    await session.app.ctx.db.updateTable('accounts_staff').set({ contract_warn: '2999-01-01', contract_end: '2999-12-31' }).where('company_id', '!=', c.id).execute();

    const logsBefore = await session.app.ctx.db.selectFrom('sys_log').select('id').where('description', '=', '合同到期提醒').execute();
    const first = await markContractReminders(session.app.ctx.db, '2026-06-10');
    // due, dueToday, ended (warn 2026-05-10) and terminated (warn 2025-12-02) reach their reminder date
    expect(first).toEqual({ reminded: 4, expired: 1 });
    const second = await markContractReminders(session.app.ctx.db, '2026-06-10');
    expect(second).toEqual({ reminded: 0, expired: 0 });

    const rows = await session.app.ctx.db
      .selectFrom('accounts_staff')
      .select(['id', 'contract_warn_state', 'contract_state'])
      .where('company_id', '=', c.id)
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    expect(byId.get(due.id)).toMatchObject({ contract_warn_state: '已提醒', contract_state: '已签订' });
    expect(byId.get(dueToday.id)?.contract_warn_state).toBe('已提醒');
    expect(byId.get(later.id)?.contract_warn_state).toBe('未提醒');
    expect(byId.get(ended.id)?.contract_state).toBe('已到期');
    expect(byId.get(terminated.id)?.contract_state).toBe('已解除');

    const logs = await session.app.ctx.db.selectFrom('sys_log').select(['params', 'username']).where('description', '=', '合同到期提醒').orderBy('id').execute();
    expect(logs.length - logsBefore.length).toBe(2);
    expect(JSON.parse(String(logs[logs.length - 2].params))).toEqual({ today: '2026-06-10', reminded: 4, expired: 1 });
    expect(logs[logs.length - 1].username).toBe('system');

    // a later day catches up with what became due since
    expect(await markContractReminders(session.app.ctx.db, '2027-01-02')).toEqual({ reminded: 1, expired: 3 });
    await expect(markContractReminders(session.app.ctx.db, '2026/06/10')).rejects.toThrow(RangeError);
  });

  it('a reminder date moved to the future is reminded again when it comes', async () => {
    const c = await createCompany(session.app, session.token);
    const s = await createStaff(session.app, session.token, c.id, { idCard: idCard('1981-01-01', 1), contractEnd: '2026-05-01', contractWarn: '2026-04-01' });
    await session.app.ctx.db.updateTable('accounts_staff').set({ contract_warn: '2999-01-01' }).where('company_id', '!=', c.id).execute();
    expect((await markContractReminders(session.app.ctx.db, '2026-04-01')).reminded).toBe(1);
    const row = (await session.app.inject({ method: 'GET', url: `/api/accountsStaff/${s.id}`, headers: bearer(session.token) })).json();
    expect(row.contractWarnState).toBe('已提醒');
    const put = await session.app.inject({ method: 'PUT', url: '/api/accountsStaff', headers: bearer(session.token), payload: { ...row, contractEnd: '2099-05-01', contractWarn: '2099-04-01' } });
    expect(put.statusCode).toBe(204);
    expect((await session.app.inject({ method: 'GET', url: `/api/accountsStaff/${s.id}`, headers: bearer(session.token) })).json().contractWarnState).toBe('未提醒');
  });
});

describe('contract reminder routes', () => {
  it('runs on demand for ACCOUNTSSTAFF_ALL / _EDIT only', async () => {
    const res = await api('POST', '/api/accountsStaff/contractReminders/run');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reminded: expect.any(Number), expired: expect.any(Number) });
    const reader = await scopedUser(session.app, { username: uniq('rd'), codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '全部' });
    expect((await api('POST', '/api/accountsStaff/contractReminders/run', reader.token)).statusCode).toBe(403);
    const editor = await scopedUser(session.app, { username: uniq('ed'), codes: ['ACCOUNTSSTAFF_EDIT'], dataScope: '全部' });
    expect((await api('POST', '/api/accountsStaff/contractReminders/run', editor.token)).statusCode).toBe(200);
  });

  it('lists reminded staff of a company for the dashboard, soonest end first, paged', async () => {
    const c = await createCompany(session.app, session.token);
    const other = await createCompany(session.app, session.token);
    const a = await createStaff(session.app, session.token, c.id, { idCard: idCard('1982-01-01', 1), contractEnd: '2030-03-01' });
    const b = await createStaff(session.app, session.token, c.id, { idCard: idCard('1982-01-01', 3), contractEnd: '2030-02-01' });
    await createStaff(session.app, session.token, c.id, { idCard: idCard('1982-01-01', 5), contractEnd: '2030-01-01' });
    const elsewhere = await createStaff(session.app, session.token, other.id, { idCard: idCard('1982-01-01', 7) });
    for (const s of [a, b, elsewhere]) await setDates(s.id, { contract_warn_state: '已提醒' });
    const res = await api('GET', `/api/accountsStaff/contractReminders?companyId=${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().totalElements).toBe(2);
    expect(res.json().content.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    expect(res.json().content[0]).toMatchObject({ staffName: '张三', contractWarnState: '已提醒', companyName: c.companyName });
    const page = await api('GET', `/api/accountsStaff/contractReminders?companyId=${c.id}&page=1&size=1`);
    expect(page.json().content.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await api('GET', `/api/accountsStaff/contractReminders?companyId=${c.id}&contractWarnState=${encodeURIComponent('未提醒')}`)).statusCode).toBe(400);
    // the contract list is the staff list with contract filters
    const contracts = await api('GET', `/api/accountsStaff?companyId=${c.id}&contractWarnState=${encodeURIComponent('已提醒')}&contractState=${encodeURIComponent('已签订')}`);
    expect(contracts.json().totalElements).toBe(2);
  });
});

describe('daily reminder job', () => {
  it('is the seeded system job 合同到期提醒 at 01:00 Asia/Shanghai, armed only when the scheduler is on, stopped when the app closes', async () => {
    const seeded = async (app: typeof session.app) =>
      (await app.ctx.db.selectFrom('sys_scheduled_job' as any).selectAll().where('seed_key', '=', 'contractReminderTask.refresh').executeTakeFirst()) as Record<string, any>;
    const off = await seeded(session.app);
    expect(off).toMatchObject({ job_name: '合同到期提醒', bean_name: 'contractReminderTask', method_name: 'refresh', cron_expression: '0 0 1 * * ?' });
    expect(await session.app.scheduler.nextRun(`job:${off.id}`)).toBeNull(); // SCHEDULER_ENABLED=false: nothing fires
    const s = await createTestApp({ scheduler: true, redisUrl: undefined });
    let closed = false;
    try {
      const row = await seeded(s.app);
      const key = `job:${row.id}`;
      const next = (await s.app.scheduler.nextRun(key))!;
      expect(next.getUTCHours()).toBe(17); // 01:00 in China is 17:00 UTC the day before
      expect(next.getUTCMinutes()).toBe(0);
      await s.app.scheduler.runNow(key, { jobName: row.job_name, handler: 'contractReminderTask.refresh', params: {} });
      for (let i = 0; i < 100 && (await s.app.scheduler.isRunning(key)); i++) await new Promise((r) => setTimeout(r, 50));
      const log = await s.app.ctx.db.selectFrom('sys_log').select('params').where('description', '=', '合同到期提醒').executeTakeFirst();
      expect(log).toBeDefined();
      const runLog = (await s.app.ctx.db.selectFrom('sys_job_log' as any).selectAll().where('job_key', '=', key).executeTakeFirst()) as Record<string, any>;
      expect(Number(runLog.is_success)).toBe(1);
      expect(runLog.summary).toMatch(/新提醒 \d+ 人，合同到期 \d+ 人/);
      await s.close();
      closed = true;
      expect(await s.app.scheduler.nextRun(key)).toBeNull();
    } finally {
      if (!closed) await s.close();
    }
  });
});
