import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaToday } from '../src/modules/dispatch/lookups.ts';
import { monthSummary } from '../src/modules/payroll/monthSummary.ts';
import { createCompany, createStaff, idCard } from './dispatch-fixtures.ts';
import { readMail, type SmtpStandIn, STAND_IN_PASS, STAND_IN_USER, startSmtpStandIn } from './email-fixtures.ts';
import { createTestApp, DEV_ADMIN_PASSWORD, login, TEST_DB, type TestApp } from './helpers.ts';
import { adminCaller, type Caller } from './system-fixtures.ts';

/**
 * The jobs a payroll office schedules (issue 25 item 1, finding M3), run through 定时任务 (create, 执行一次,
 * run log) on a real database with the SMTP stand-in: the month's 生成 for every company with staff, the
 * reminder of companies behind, and contract-expiry notices that reach the company's clerk and the admins.
 */
let t: TestApp;
let smtp: SmtpStandIn;
let admin: Caller;
let token: string;
const ADMIN_MAIL = 'boss@example.com';

beforeAll(async () => {
  smtp = await startSmtpStandIn('ssl');
  t = await createTestApp({ smtpTlsRejectUnauthorized: false, smtpHostAllowlist: ['127.0.0.1'] });
  admin = await adminCaller(t);
  token = await login(t.app, 'admin', DEV_ADMIN_PASSWORD);
  await t.app.ctx.db.updateTable('sys_user').set({ email: ADMIN_MAIL } as never).where('username', '=', 'admin').execute();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const configureSmtp = async () => {
  const res = await admin('PUT', '/api/email', { id: 1, fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: STAND_IN_PASS, host: '127.0.0.1', port: smtp.port, sslEnable: true });
  expect(res.statusCode).toBe(204);
};

/** Create a job for `handler`, run it once and return its run-log row. */
async function runJob(handler: string, params: Record<string, unknown> = {}) {
  const [beanName, methodName] = handler.split('.');
  const created = await admin('POST', '/api/jobs', { jobName: `${methodName}${Math.random().toString(36).slice(2, 8)}`, beanName, methodName, cronExpression: '0 0 3 1 * ?', params: JSON.stringify(params), isPause: true });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  expect((await admin('PUT', `/api/jobs/exec/${id}`)).statusCode).toBe(200);
  const end = Date.now() + 20_000;
  for (;;) {
    const row = await t.app.ctx.db.selectFrom('sys_job_log').selectAll().where('job_key', '=', `job:${id}`).executeTakeFirst();
    if (row) return { ok: Number(row.is_success) === 1, summary: row.summary ?? '', detail: row.exception_detail ?? '' };
    if (Date.now() > end) throw new Error('no run-log row');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`salary month preparation (${TEST_DB})`, () => {
  it('refuses bad parameters when the job is saved', async () => {
    for (const params of [{ month: '2026-13' }, { mode: 'later' }, { dueDay: 40 }]) {
      const res = await admin('POST', '/api/jobs', { jobName: `bad${Math.random()}`, beanName: 'salaryMonthTask', methodName: 'prepare', cronExpression: '0 0 3 1 * ?', params: JSON.stringify(params) });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('JOB_PARAMS_INVALID');
    }
  });

  it('generates the month for every company with staff, reports the one it could not, skips generated months; the reminder lists who is behind and mails the admins', async () => {
    const a = await createCompany(t.app, token);
    await createStaff(t.app, token, a.id, { idCard: idCard('1990-03-07', 21) });
    await createStaff(t.app, token, a.id, { idCard: idCard('1991-04-08', 22), staffName: '李四' });
    const b = await createCompany(t.app, token);
    await createStaff(t.app, token, b.id, { idCard: idCard('1992-05-09', 23), staffName: '王五' });
    // a company without staff is not a company to prepare
    await createCompany(t.app, token);
    // b has no withholding agent: the payroll module refuses its 生成
    await t.app.ctx.db.updateTable('accounts_company').set({ dispatch_company: null } as never).where('id', '=', b.id).execute();

    const month = '2026-10';
    const first = await runJob('salaryMonthTask.prepare', { month });
    expect(first.ok).toBe(false);
    expect(first.detail).toContain('部分单位未能生成工资');
    expect(first.detail).toContain(`${b.companyName}：该单位未设置派遣单位`);
    expect((await monthSummary(t.app.ctx.db, a.id, month)).rows).toBe(2);
    expect((await monthSummary(t.app.ctx.db, b.id, month)).rows).toBe(0);

    await t.app.ctx.db.updateTable('accounts_company').set({ dispatch_company: '北京华派人力资源有限公司' } as never).where('id', '=', b.id).execute();
    const second = await runJob('salaryMonthTask.prepare', { month });
    expect(second.ok, second.detail).toBe(true);
    expect(second.summary).toContain('生成 1 家（1 条）');
    expect(second.summary).toContain(`${a.companyName}（已生成）`);
    expect((await monthSummary(t.app.ctx.db, b.id, month)).rows).toBe(1);

    // the default month is the current one in China time
    const current = await runJob('salaryMonthTask.prepare', { mode: 'remind' });
    expect(current.summary.startsWith(chinaToday().slice(0, 7))).toBe(true);

    // reminder without SMTP: the report is in the run log
    const quiet = await runJob('salaryMonthTask.prepare', { mode: 'remind', month });
    expect(quiet.ok).toBe(true);
    expect(quiet.summary).toContain(`${a.companyName}（未计算）`);
    expect(quiet.summary).toContain('未配置邮件服务器');

    await configureSmtp();
    const other = await createCompany(t.app, token);
    await createStaff(t.app, token, other.id, { idCard: idCard('1993-06-10', 24), staffName: '赵六' });
    const mailed = await runJob('salaryMonthTask.prepare', { mode: 'remind', month });
    expect(mailed.ok, mailed.detail).toBe(true);
    expect(mailed.summary).toContain(`${other.companyName}（未生成）`);
    expect(mailed.summary).toContain('已发送邮件至 1 人');
    const mail = readMail((await smtp.next(ADMIN_MAIL)).raw);
    expect(mail.subject).toContain(`${month} 工资未完成提醒`);
    expect(mail.html).toContain(a.companyName);
    expect(mail.html).toContain(`${other.companyName}：未生成`);
  });
});

describe(`contract-expiry notices (${TEST_DB})`, () => {
  it("marks the contracts and mails each company's clerk its list and the admins the whole list", async () => {
    const today = chinaToday();
    const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const c = await createCompany(t.app, token, { email: 'clerk-c@example.com' });
    await createStaff(t.app, token, c.id, { idCard: idCard('1985-01-01', 31), staffName: '到期提醒甲', contractStart: '2024-01-02', contractEnd: day(20), contractWarn: day(-1) });
    await createStaff(t.app, token, c.id, { idCard: idCard('1985-01-02', 32), staffName: '远期乙', contractStart: '2024-01-02', contractEnd: day(400), contractWarn: day(370) });
    const d = await createCompany(t.app, token, { email: '' });
    await createStaff(t.app, token, d.id, { idCard: idCard('1985-01-03', 33), staffName: '已到期丙', contractStart: '2024-01-02', contractEnd: day(-3), contractWarn: day(-33) });

    const res = await runJob('contractNoticeTask.send');
    expect(res.ok, res.detail).toBe(true);
    expect(res.summary).toContain(`${d.companyName} 未填写邮箱`);
    const clerk = readMail((await smtp.next('clerk-c@example.com')).raw);
    expect(clerk.subject).toBe(`劳动合同到期提醒：${c.companyName} 1 人`);
    expect(clerk.html).toContain('到期提醒甲');
    expect(clerk.html).not.toContain('远期乙');
    expect(clerk.html).not.toContain('已到期丙');
    const boss = readMail((await smtp.next(ADMIN_MAIL)).raw);
    expect(boss.html).toContain('到期提醒甲');
    expect(boss.html).toContain('已到期丙');
    const flags = await t.app.ctx.db.selectFrom('accounts_staff').select(['staff_name', 'contract_warn_state', 'contract_state']).where('company_id', 'in', [c.id, d.id]).execute();
    expect(flags.find((f) => f.staff_name === '到期提醒甲')?.contract_warn_state).toBe('已提醒');
    expect(flags.find((f) => f.staff_name === '已到期丙')?.contract_state).toBe('已到期');
  });
});
