import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './dispatch-fixtures.ts';
import { readMail, type SmtpStandIn, STAND_IN_PASS, STAND_IN_USER, startSmtpStandIn } from './email-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from './helpers.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';

/**
 * Payslip delivery with the employee's confirmation (issue 24 item 1) on a real database with the SMTP stand-in:
 * publishing a confirmed month, notices without amounts, view / 确认 / 有异议 with their evidence, the clerk's counts
 * and answer, 逾期未反馈 that never counts as confirmed, a correction that publishes a new version and reopens only
 * the changed slip, recall, a scheduled publication run by the notice job, and employees who cannot touch another's.
 */
let t: TestApp;
let smtp: SmtpStandIn;
let admin: Api;
let token: string;

beforeAll(async () => {
  smtp = await startSmtpStandIn('ssl');
  t = await createTestApp({ smtpTlsRejectUnauthorized: false, smtpHostAllowlist: ['127.0.0.1'] });
  token = await adminToken(t.app);
  admin = api(t.app, token);
  const smtpRes = await admin('PUT', '/api/email', { id: 1, fromUser: STAND_IN_USER, user: STAND_IN_USER, pass: STAND_IN_PASS, host: '127.0.0.1', port: smtp.port, sslEnable: true });
  expect(smtpRes.status).toBe(204);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function employee(idCard: string): Promise<Api> {
  const roleId = await idOf(t, 'sys_role', '普通员工');
  const jobId = await idOf(t, 'sys_job', '普通员工');
  const userId = await createUser(t, { username: idCard, roleIds: [roleId], jobId });
  return api(t.app, await tokenFor(t, userId));
}

/** Create a job for the payslip-notice handler, run it once, return its run-log row. */
async function runNoticeJob() {
  const created = await admin('POST', '/api/jobs', { jobName: `payslip${Math.random().toString(36).slice(2, 8)}`, beanName: 'payslipNoticeTask', methodName: 'send', cronExpression: '0 0 3 1 * ?', params: '{}', isPause: true });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  expect((await admin('PUT', `/api/jobs/exec/${id}`)).status).toBe(200);
  const end = Date.now() + 20_000;
  for (;;) {
    const row = await t.app.ctx.db.selectFrom('sys_job_log').selectAll().where('job_key', '=', `job:${id}`).executeTakeFirst();
    if (row) return { ok: Number(row.is_success) === 1, summary: row.summary ?? '', detail: row.exception_detail ?? '' };
    if (Date.now() > end) throw new Error('no run-log row');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`payslip delivery (${TEST_DB})`, () => {
  it('publishes, records view / confirm / objection with evidence, counts per state, answers, and keeps employees to their own', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '发放甲' }), vectorStaff(9000, { staffName: '发放乙' })]);
    const [a, b] = staff;
    const month = '2026-03';
    const body = { companyId: company.id, month, siteUrl: 'https://pay.example.com' };

    // not confirmed, then confirmed without payslips: refused with the reason
    expect(await admin('POST', '/api/acPayslip/publish', body)).toMatchObject({ status: 409, body: { code: 'PAYSLIP_DELIVERY_NOT_CONFIRMED' } });
    await runMonth(admin, company.id, month);
    expect(await admin('POST', '/api/acPayslip/publish', body)).toMatchObject({ status: 409, body: { code: 'PAYSLIP_DELIVERY_NO_SLIPS' } });
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
    // bad input: 4xx with a reason
    expect((await admin('POST', '/api/acPayslip/publish', { ...body, confirmDays: 0 })).status).toBe(400);
    expect((await admin('POST', '/api/acPayslip/publish', { ...body, siteUrl: 'javascript:alert(1)' })).status).toBe(400);
    expect((await admin('POST', '/api/acPayslip/publish', { ...body, month: '2026-13' })).status).toBe(400);

    const meA = await employee(a.idCard);
    const meB = await employee(b.idCard);
    const published = await admin('POST', '/api/acPayslip/publish', { ...body, confirmDays: 5 });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ notified: 2, carriedOver: 0, publication: { version: 1, state: 'published', confirmDays: 5, counts: { published: 2, total: 2 } } });
    // one mail each, without any amount, linking to the self-service page
    for (const who of [a, b]) {
      const mail = readMail((await smtp.next(`${who.idCard.toLowerCase()}@fixture.test`)).raw);
      expect(mail.subject).toBe(`${month} 工资条已发布`);
      expect(mail.html).toContain('https://pay.example.com/acPayslip/index');
      expect(mail.html).not.toMatch(/8000|9000|8,000|9,000|\d\.\d\d/);
    }
    const notices = await meA('GET', '/api/notices');
    expect(notices.body.content[0]).toMatchObject({ kind: 'payslip_published', link: '/acPayslip/index' });
    // the same slips again: nothing new to publish
    expect(await admin('POST', '/api/acPayslip/publish', body)).toMatchObject({ status: 409, body: { code: 'PAYSLIP_DELIVERY_UNCHANGED' } });

    // each employee sees only their own receipt, with the slip as published
    const mineA = (await meA('GET', '/api/acPayslip/receipts/mine')).body.content;
    const mineB = (await meB('GET', '/api/acPayslip/receipts/mine')).body.content;
    expect(mineA).toHaveLength(1);
    const slipA = (await admin('GET', `/api/acPayslip?month=${month}&idCard=${a.idCard}`)).body.content[0];
    expect(slipA.shifa).toBeGreaterThan(1000);
    expect(mineA[0]).toMatchObject({ idCard: a.idCard, state: 'published', month, version: 1, slip: { name: '发放甲', shifa: slipA.shifa, benqi: slipA.benqi } });
    expect(mineA[0].slipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(mineB).toHaveLength(1);
    const ra = mineA[0];
    const rb = mineB[0];
    // …and cannot open, confirm or object to another's (not found, as if it did not exist)
    expect(await meA('POST', `/api/acPayslip/receipts/${rb.id}/view`)).toMatchObject({ status: 404, body: { code: 'PAYSLIP_RECEIPT_NOT_FOUND' } });
    expect((await meA('POST', `/api/acPayslip/receipts/${rb.id}/confirm`, { slipHash: rb.slipHash })).status).toBe(404);
    expect((await meA('POST', `/api/acPayslip/receipts/${rb.id}/object`, { text: '不是我的' })).status).toBe(404);
    // …nor read the clerk's screens or publish
    expect(await meA('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=${month}`)).toMatchObject({ status: 403, body: { code: 'PAYSLIP_DELIVERY_EMPLOYEE' } });
    expect((await meA('GET', '/api/acPayslip/deliveries')).status).toBe(403);
    expect((await meA('POST', '/api/acPayslip/publish', body)).status).toBe(403);
    expect((await meA('POST', `/api/acPayslip/receipts/${rb.id}/reply`, { text: 'x' })).status).toBe(403);

    // first view: time and IP, kept on later views
    const viewed = await meA('POST', `/api/acPayslip/receipts/${ra.id}/view`);
    expect(viewed.body.receipt).toMatchObject({ state: 'viewed', viewedIp: '127.0.0.1' });
    const firstView = viewed.body.receipt.viewedTime;
    expect((await meA('POST', `/api/acPayslip/receipts/${ra.id}/view`)).body.receipt.viewedTime).toBe(firstView);
    // a confirmation names the version seen
    expect(await meA('POST', `/api/acPayslip/receipts/${ra.id}/confirm`, { slipHash: 'f'.repeat(64) })).toMatchObject({ status: 409, body: { code: 'PAYSLIP_RECEIPT_VERSION_CHANGED' } });
    expect((await meA('POST', `/api/acPayslip/receipts/${ra.id}/confirm`, { slipHash: 'nothex' })).status).toBe(400);
    const confirmed = await meA('POST', `/api/acPayslip/receipts/${ra.id}/confirm`, { slipHash: ra.slipHash });
    expect(confirmed.body.receipt).toMatchObject({ state: 'confirmed', confirmedHash: ra.slipHash, confirmedIp: '127.0.0.1', viewedTime: firstView });
    expect(confirmed.body.receipt.confirmedTime).toBeTruthy();
    expect(await meA('POST', `/api/acPayslip/receipts/${ra.id}/object`, { text: '改主意了' })).toMatchObject({ status: 409, body: { code: 'PAYSLIP_RECEIPT_CONFIRMED' } });

    // an objection with the employee's text (never empty, bounded)
    expect((await meB('POST', `/api/acPayslip/receipts/${rb.id}/object`, { text: '   ' })).status).toBe(400);
    expect((await meB('POST', `/api/acPayslip/receipts/${rb.id}/object`, { text: 'x'.repeat(501) })).status).toBe(400);
    const objected = await meB('POST', `/api/acPayslip/receipts/${rb.id}/object`, { text: '加班费少算了8小时' });
    expect(objected.body.receipt).toMatchObject({ state: 'objected', objection: '加班费少算了8小时' });

    // the clerk: counts per state and the list to answer
    const detail = await admin('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=${month}`);
    expect(detail.status).toBe(200);
    expect(detail.body.publication.counts).toEqual({ published: 0, viewed: 0, confirmed: 1, objected: 1, answered: 0, overdue: 0, total: 2 });
    expect(detail.body.objections.map((r: any) => [r.staffName, r.objection])).toEqual([['发放乙', '加班费少算了8小时']]);
    const list = await admin('GET', `/api/acPayslip/deliveries?companyId=${company.id}`);
    expect(list.body).toMatchObject({ totalElements: 1, content: [{ month, version: 1, counts: { confirmed: 1, objected: 1 } }] });
    expect((await admin('POST', `/api/acPayslip/receipts/${ra.id}/reply`, { text: '好的' })).body.code).toBe('PAYSLIP_RECEIPT_NO_OBJECTION');
    const answered = await admin('POST', `/api/acPayslip/receipts/${rb.id}/reply`, { text: '已核实，下月补发' });
    expect(answered.body.receipt).toMatchObject({ state: 'answered', reply: '已核实，下月补发', replyBy: 'admin' });

    // silence past the deadline is 逾期未反馈, never 已确认
    await t.app.ctx.db.updateTable('accounts_payslip_receipt').set({ deadline: '2000-01-01T00:00:00.000Z' }).where('id', '=', rb.id).execute();
    const late = await admin('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=${month}`);
    expect(late.body.publication.counts).toEqual({ published: 0, viewed: 0, confirmed: 1, objected: 0, answered: 0, overdue: 1, total: 2 });
    expect(late.body.receipts.find((r: any) => r.id === rb.id).state).toBe('overdue');
    expect((await meB('GET', '/api/acPayslip/receipts/mine')).body.content[0].state).toBe('overdue');
  });

  it('a correction publishes a new version: the changed slip reopens, the unchanged keeps its confirmation, the old version cannot be confirmed', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '更正甲' }), vectorStaff(9000, { staffName: '更正乙' })]);
    const [a, b] = staff;
    const month = '2026-04';
    await runMonth(admin, company.id, month);
    await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month });
    const meA = await employee(a.idCard);
    const meB = await employee(b.idCard);
    expect((await admin('POST', '/api/acPayslip/publish', { companyId: company.id, month })).status).toBe(200);
    const ra = (await meA('GET', '/api/acPayslip/receipts/mine')).body.content[0];
    const rb = (await meB('GET', '/api/acPayslip/receipts/mine')).body.content[0];
    await meA('POST', `/api/acPayslip/receipts/${ra.id}/confirm`, { slipHash: ra.slipHash });
    await meB('POST', `/api/acPayslip/receipts/${rb.id}/object`, { text: '少了加班费' });

    // 反确认, B's overtime added, confirmed again, payslips regenerated
    expect((await admin('POST', '/api/accountsSalary/unconfirm', { companyId: company.id, month, reason: '乙加班费漏报' })).status).toBe(200);
    const rows = await salaryRows(admin, company.id, month);
    const rowB = rows.find((r) => r.idCard === b.idCard);
    expect((await admin('PUT', '/api/accountsSalary', { id: rowB?.id, jiaban: 300 })).status).toBe(204);
    expect((await admin('POST', '/api/accountsSalary/calculate', { companyId: company.id, month })).status).toBe(200);
    expect((await admin('POST', '/api/accountsSalary/confirm', { companyId: company.id, month, companyName: 'x', acknowledgeWarnings: true })).status).toBe(200);
    await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month });

    const v2 = await admin('POST', '/api/acPayslip/publish', { companyId: company.id, month });
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body).toMatchObject({ carriedOver: 1, notified: 1, publication: { version: 2, counts: { confirmed: 1, published: 1, total: 2 } } });
    // the old version is superseded: its receipt cannot be confirmed any more
    expect(await meB('POST', `/api/acPayslip/receipts/${rb.id}/confirm`, { slipHash: rb.slipHash })).toMatchObject({ status: 409, body: { code: 'PAYSLIP_RECEIPT_WITHDRAWN' } });
    const nb = (await meB('GET', '/api/acPayslip/receipts/mine')).body.content;
    expect(nb).toHaveLength(1);
    expect(nb[0]).toMatchObject({ version: 2, state: 'published', objection: null, slip: { jiaban: 300 } });
    expect(nb[0].slipHash).not.toBe(rb.slipHash);
    const na = (await meA('GET', '/api/acPayslip/receipts/mine')).body.content[0];
    expect(na).toMatchObject({ version: 2, state: 'confirmed', confirmedHash: ra.slipHash, slipHash: ra.slipHash });
    expect((await meB('POST', `/api/acPayslip/receipts/${nb[0].id}/confirm`, { slipHash: nb[0].slipHash })).body.receipt.state).toBe('confirmed');
    // the first version stays on record (3 years, 国务院令第724号 §15)
    const kept = await t.app.ctx.db.selectFrom('accounts_payslip_receipt').select(['version', 'state', 'objection']).where('id', '=', rb.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ version: 1, state: 'objected', objection: '少了加班费' });

    // recall: the employee no longer sees it; nothing left to recall afterwards
    const recalled = await admin('POST', '/api/acPayslip/recall', { companyId: company.id, month });
    expect(recalled.body.publication).toMatchObject({ version: 2, state: 'recalled' });
    expect((await meA('GET', '/api/acPayslip/receipts/mine')).body.content).toHaveLength(0);
    expect(await admin('POST', '/api/acPayslip/recall', { companyId: company.id, month })).toMatchObject({ status: 409, body: { code: 'PAYSLIP_DELIVERY_NOTHING_TO_RECALL' } });
  });

  it('a scheduled publication is recalled before it goes out or published by the notice job when due', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(7000, { staffName: '定时甲' })]);
    const month = '2026-05';
    await runMonth(admin, company.id, month);
    await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month });
    const me = await employee(staff[0].idCard);
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const scheduled = await admin('POST', '/api/acPayslip/publish', { companyId: company.id, month, publishAt: later });
    expect(scheduled.body).toMatchObject({ notified: 0, publication: { state: 'scheduled', publishAt: later, counts: { total: 0 } } });
    expect(await admin('POST', '/api/acPayslip/publish', { companyId: company.id, month })).toMatchObject({ status: 409, body: { code: 'PAYSLIP_DELIVERY_SCHEDULED' } });
    expect((await me('GET', '/api/acPayslip/receipts/mine')).body.content).toHaveLength(0);
    // not due yet: the job leaves it
    const early = await runNoticeJob();
    expect(early.ok, early.detail).toBe(true);
    expect((await admin('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=${month}`)).body.publication.state).toBe('scheduled');
    // recalled before it went out, scheduled again, then due
    expect((await admin('POST', '/api/acPayslip/recall', { companyId: company.id, month })).body.publication.state).toBe('recalled');
    expect((await admin('POST', '/api/acPayslip/publish', { companyId: company.id, month, publishAt: later })).body.publication.version).toBe(2);
    await t.app.ctx.db.updateTable('accounts_payslip_publication').set({ publish_at: '2000-01-01T00:00:00.000Z' }).where('company_id', '=', company.id).where('version', '=', 2).execute();
    const due = await runNoticeJob();
    expect(due.ok, due.detail).toBe(true);
    expect(due.summary).toContain('通知 1 人');
    const mail = readMail((await smtp.next(`${staff[0].idCard.toLowerCase()}@fixture.test`)).raw);
    expect(mail.subject).toBe(`${month} 工资条已发布`);
    const detail = await admin('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=${month}`);
    expect(detail.body.publication).toMatchObject({ version: 2, state: 'published', counts: { published: 1, total: 1 } });
    expect(detail.body.publication.notifiedTime).toBeTruthy();
    expect((await me('GET', '/api/acPayslip/receipts/mine')).body.content).toHaveLength(1);
  });

  it('a clerk outside the company’s data scope or without the payslip codes is refused', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(6000)]);
    const reader = await userWithCodes(t, ['ACCOUNTSCOMPANY_SELECT']);
    const other = api(t.app, await tokenFor(t, reader.id));
    expect((await other('GET', `/api/acPayslip/delivery?companyId=${company.id}&month=2026-03`)).status).toBe(403);
    expect((await other('POST', '/api/acPayslip/publish', { companyId: company.id, month: '2026-03' })).status).toBe(403);
  });
});
