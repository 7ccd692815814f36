import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken, sheetRows } from './dispatch-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// Month close I (issue 22): 结算单 from a confirmed month, states, versions, receipts and the ledger's arrears,
// 反确认 → 需重开, the .xlsx, and who may call. Real database through app.inject (SQLite, PostgreSQL, MariaDB).

let t: TestApp;
let admin: Api;
let token: string;
const AGENT = '北京华派人力资源有限公司';

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

const cents = (yuan: number) => Math.round(yuan * 100);
const sumOf = (rows: any[], key: string) => rows.reduce((a, r) => a + cents(r[key] ?? 0), 0);

async function terms(companyId: number, validFrom: string, over: Record<string, unknown> = {}) {
  const r = await admin('POST', '/api/settlementTerms', { companyId, validFrom, feeMode: 'PER_HEAD', feeAmount: 150, feeRate: 0, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'NONE', unionFeeRatio: 0, ...over });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}
async function regime(validFrom: string, regimeCode: string, rate: number, agent = AGENT) {
  const r = await admin('POST', '/api/vatRegime', { dispatchCompany: agent, validFrom, regime: regimeCode, rate, surtaxRatio: 0.12 });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
}
const generate = (companyId: number, month: string, as: Api = admin) => as('POST', '/api/settlement/generate', { companyId, month });
const setState = (id: number, body: Record<string, unknown>, as: Api = admin) => as('PUT', `/api/settlement/${id}/state`, body);
const receipt = (id: number, amount: number, date = '2026-05-10') => admin('POST', `/api/settlement/${id}/receipts`, { amount, date, note: '银行回单' });

describe('settlement terms and VAT regimes (plain dated resources)', () => {
  it('refuses unreadable per-head items, a union ratio other than 0 or 2 %, an unknown dispatch entity', async () => {
    const { company } = await companyWithStaff(t.app, token, []);
    const bad = await admin('POST', '/api/settlementTerms', { companyId: company.id, validFrom: '2026-01', feeMode: 'PER_HEAD', feeAmount: 1, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'NONE', perHeadItems: '商保 30' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('商保 30');
    const union = await admin('POST', '/api/settlementTerms', { companyId: company.id, validFrom: '2026-01', feeMode: 'PER_HEAD', feeAmount: 1, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'NONE', unionFeeRatio: 0.03 });
    expect(union.status).toBe(400);
    const agent = await admin('POST', '/api/vatRegime', { dispatchCompany: '不存在的派遣单位', validFrom: '2026-01', regime: 'GENERAL_6', rate: 0.06, surtaxRatio: 0.12 });
    expect(agent.status).toBe(400);
  });
});

describe('generate, states, versions, receipts, ledger', () => {
  it('409 unless the month is confirmed and terms and a VAT regime are in force; exact header; the whole flow', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(10000, { staffName: '结算甲' }), vectorStaff(8000.33, { staffName: '结算乙' })]);
    const month = '2026-01';
    const unconfirmed = await generate(company.id, month);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.message).toContain('尚未确认');
    await runMonth(admin, company.id, month);
    expect((await generate(company.id, month)).body.message).toContain('没有生效的结算条款');
    await terms(company.id, '2025-12', { perHeadItems: '商保:30; 体检:15.50', unionFeeRatio: 0.02, disabledShareMode: 'PER_HEAD', disabledShareAmount: 12.34 });
    const noRegime = await generate(company.id, month);
    expect(noRegime.status).toBe(409);
    expect(noRegime.body.message).toContain(AGENT);
    await regime('2026-01', 'GENERAL_6', 0.06);

    const g = await generate(company.id, month);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body.statement).toMatchObject({ version: 1, state: 'DRAFT', heads: 2, vatRegime: 'GENERAL_6' });
    const d = (await admin('GET', `/api/settlement/${g.body.statement.id}`)).body;
    const rows = await salaryRows(admin, company.id, month);
    // lines from the confirmed rows, to the fen; 医疗 includes 生育
    expect(d.lines.map((l: any) => l.gross)).toEqual(rows.map((r) => r.gross));
    expect(d.lines.map((l: any) => cents(l.employerYiliao))).toEqual(rows.map((r) => cents(r.employerYiliao) + cents(r.employerShengyu)));
    expect(d.lines[0].idCardMasked).toMatch(/^\d{6}\*{8}\w{4}$/);
    expect(d.lines.map((l: any) => [l.fee, l.disabledShare, ...l.items])).toEqual([
      [150, 12.34, 30, 15.5],
      [150, 12.34, 30, 15.5],
    ]);
    // 工会经费 2 % of 应发, half-up per line
    expect(d.lines.map((l: any) => cents(l.unionFee))).toEqual(rows.map((r) => Math.round(cents(r.gross) * 0.02)));
    // every header column is the sum of its lines
    for (const k of Object.keys(d.header.sums)) expect(cents(d.header.sums[k]), k).toBe(sumOf(d.lines, k));
    expect(d.header.itemSums).toEqual([60, 31]);
    // GENERAL_6 inclusive: VAT = subtotal × 6/106, half-up; surtax 12 % of it
    const subtotal = cents(d.header.subtotal);
    expect(cents(d.header.vat)).toBe(Math.round((subtotal * 6) / 106));
    expect(cents(d.header.surtax)).toBe(Math.round(cents(d.header.vat) * 0.12));
    expect(d.header.totalDue).toBe(d.header.currentDue);
    expect(d.terms).toMatchObject({ vatRegime: 'GENERAL_6', validFrom: '2025-12', perHeadItems: '商保:30.00; 体检:15.50', siMonth: month });

    // a draft regenerated is replaced in place; illegal transitions are 409
    const again = await generate(company.id, month);
    expect(again.body.statement).toMatchObject({ id: g.body.statement.id, version: 1 });
    const id = again.body.statement.id;
    expect((await setState(id, { state: 'CONFIRMED' })).status).toBe(409);
    expect((await setState(id, { state: 'SETTLED' })).status).toBe(409);
    expect((await setState(id, { state: 'SENT' })).body.state).toBe('SENT');
    expect((await setState(id, { state: 'SENT' })).status).toBe(409);
    expect((await admin('DELETE', `/api/settlement/${id}`)).status).toBe(409);

    // regenerating after 已发送 makes version 2 and keeps version 1
    const v2 = await generate(company.id, month);
    expect(v2.body.statement).toMatchObject({ version: 2, state: 'DRAFT' });
    expect((await admin('GET', `/api/settlement/${id}`)).body).toMatchObject({ version: 1, superseded: true, state: 'SENT' });
    expect((await setState(id, { state: 'CONFIRMED' })).status).toBe(409);
    const list = await admin('GET', `/api/settlement?companyId=${company.id}`);
    expect(list.body.content.map((s: any) => s.version)).toEqual([2]);
    expect((await admin('GET', `/api/settlement?companyId=${company.id}&allVersions=true`)).body.totalElements).toBe(2);

    const sid = v2.body.statement.id;
    await setState(sid, { state: 'SENT' });
    expect((await setState(sid, { state: 'DISPUTED' })).status).toBe(400); // a reason is required
    expect((await setState(sid, { state: 'DISPUTED', note: '人数不符' })).body).toMatchObject({ state: 'DISPUTED', disputeReason: '人数不符' });
    expect((await setState(sid, { state: 'CONFIRMED' })).body.state).toBe('CONFIRMED');
    expect((await receipt(sid, 100)).status).toBe(409); // not invoiced yet
    expect((await setState(sid, { state: 'INVOICED', invoiceNo: 'F001' })).status).toBe(400);
    const inv = await setState(sid, { state: 'INVOICED', invoiceNo: 'F001', invoiceDate: '2026-02-05', invoiceAmount: v2.body.statement.totalDue });
    expect(inv.body).toMatchObject({ state: 'INVOICED', invoiceNo: 'F001', invoiceDate: '2026-02-05' });
    expect((await receipt(sid, 0)).status).toBe(400);
    expect((await receipt(sid, 1.005)).status).toBe(400);

    // short by 100.00 in January -> carried into February's statement; February overpaid by 50.00 -> March −50.00
    const jan = v2.body.statement;
    const part = await receipt(sid, jan.totalDue - 200);
    expect(part.body).toMatchObject({ state: 'PARTIAL' });
    expect((await receipt(sid, 100)).body).toMatchObject({ state: 'PARTIAL', outstanding: 100 });
    expect((await generate(company.id, month)).status).toBe(409); // receipts recorded: no new version

    await runMonth(admin, company.id, '2026-02');
    const feb = (await generate(company.id, '2026-02')).body.statement;
    expect(feb.arrearsIn).toBe(100);
    expect(cents(feb.totalDue)).toBe(cents(feb.currentDue) + 10000);
    await setState(feb.id, { state: 'SENT' });
    await setState(feb.id, { state: 'CONFIRMED' });
    await setState(feb.id, { state: 'INVOICED', invoiceNo: 'F002', invoiceDate: '2026-03-05', invoiceAmount: feb.totalDue });
    expect((await receipt(feb.id, feb.totalDue + 50)).body).toMatchObject({ state: 'SETTLED', outstanding: -50 });

    await runMonth(admin, company.id, '2026-03');
    const mar = (await generate(company.id, '2026-03')).body.statement;
    expect(mar.arrearsIn).toBe(-50);

    const ledger = (await admin('GET', `/api/receivables?companyId=${company.id}&size=50`)).body;
    expect(ledger.content.map((r: any) => [r.month, r.balance, r.cumulative])).toEqual([
      ['2026-03', mar.currentDue, cents(mar.currentDue - 50) / 100],
      ['2026-02', cents(feb.currentDue - feb.totalDue - 50) / 100, -50],
      ['2026-01', 100, 100],
    ]);
    const receipts = (await admin('GET', `/api/settlement/receipts?companyId=${company.id}`)).body;
    expect(receipts.totalElements).toBe(3);

    // the .xlsx: header block, lines, totals, the signature block; named after company and month
    const x = await t.app.inject({ method: 'GET', url: `/api/export/settlement/${sid}`, headers: { authorization: `Bearer ${token}` } });
    expect(x.statusCode).toBe(200);
    expect(decodeURIComponent(String(x.headers['content-disposition']))).toContain(`结算单_${company.companyName}_2026-01_v2.xlsx`);
    const sheet = sheetRows(x.rawPayload);
    const flat = sheet.map((r) => r.join('|'));
    expect(flat[0]).toContain('结算单');
    expect(flat.some((l) => l.startsWith('结算月份|2026-01'))).toBe(true);
    expect(flat.some((l) => l.includes('结算甲'))).toBe(true);
    expect(flat.some((l) => l.startsWith('合计应收|'))).toBe(true);
    expect(flat.some((l) => l.startsWith('用工单位（盖章）'))).toBe(true);
    const total = sheet.find((r) => r[0] === '合计') as unknown[];
    expect(total).toBeDefined();
  });

  it('SI billing lag 1 bills the previous month’s employer contributions; DIFF_5 and SMALL', async () => {
    const other = '北京众信劳务派遣有限公司';
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(9000, { staffName: '滞后甲' })], { dispatchCompany: other });
    await terms(company.id, '2026-01', { siBillingLag: '1', feeMode: 'PCT_WAGE', feeRate: 0.05 });
    const rowsJan = await runMonth(admin, company.id, '2026-01');
    // the lag client's first month: its previous month has no rows, so no employer SI/HF yet
    expect((await generate(company.id, '2026-01')).body.message).toContain(other);
    await regime('2026-01', 'DIFF_5', 0.05, other);
    await regime('2026-03', 'SMALL', 0.01, other);
    const janS = await generate(company.id, '2026-01');
    expect(janS.status, JSON.stringify(janS.body)).toBe(200);
    const janD = (await admin('GET', `/api/settlement/${janS.body.statement.id}`)).body;
    expect(janD.lines[0].employerYanglao).toBe(0);
    // DIFF_5 inclusive: VAT on (total − wages and SI/HF passed through) × 5/105
    expect(cents(janD.header.vatBase)).toBe(cents(janD.header.subtotal) - cents(janD.header.passThrough));
    expect(cents(janD.header.vat)).toBe(Math.round((cents(janD.header.vatBase) * 5) / 105));
    expect(cents(janD.lines[0].fee)).toBe(Math.round(cents(rowsJan[0].gross) * 0.05));

    await runMonth(admin, company.id, '2026-02');
    const febD = (await admin('GET', `/api/settlement/${(await generate(company.id, '2026-02')).body.statement.id}`)).body;
    expect(febD.terms.siMonth).toBe('2026-01');
    expect(febD.lines[0].employerYanglao).toBe(rowsJan[0].employerYanglao);
    expect(febD.lines[0].employerGongjijin).toBe(rowsJan[0].employerGongjijin);

    await runMonth(admin, company.id, '2026-03');
    const marD = (await admin('GET', `/api/settlement/${(await generate(company.id, '2026-03')).body.statement.id}`)).body;
    expect(marD.terms).toMatchObject({ vatRegime: 'SMALL', vatRate: '0.01' });
    expect(cents(marD.header.vat)).toBe(Math.round(cents(marD.header.subtotal) / 101));
  });

  it('反确认 marks the statement 需重开; it cannot move on until generated again after confirming', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(7000, { staffName: '重开甲' })]);
    await terms(company.id, '2026-01', { feeMode: 'LUMP_SUM', feeAmount: 1000.01 });
    await runMonth(admin, company.id, '2026-01');
    const s = (await generate(company.id, '2026-01')).body.statement;
    expect((await setState(s.id, { state: 'SENT' })).body.state).toBe('SENT');
    const un = await admin('POST', '/api/accountsSalary/unconfirm', { companyId: company.id, month: '2026-01', reason: '漏报加班费' });
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    const after = (await admin('GET', `/api/settlement/${s.id}`)).body;
    expect(after).toMatchObject({ state: 'SENT', needsReopen: true, totalDue: s.totalDue });
    expect((await setState(s.id, { state: 'CONFIRMED' })).status).toBe(409);
    expect((await generate(company.id, '2026-01')).status).toBe(409);
    await runMonth(admin, company.id, '2026-01');
    const v2 = (await generate(company.id, '2026-01')).body.statement;
    expect(v2).toMatchObject({ version: 2, needsReopen: false });
    const d = (await admin('GET', `/api/settlement/${v2.id}`)).body;
    expect(d.header.sums.fee).toBe(1000.01);
  });
});

describe('detail lines paged and searched (the header stays whole)', () => {
  it('pages the lines, finds a person by name, by the last digits or by the whole ID card; refuses a page of 501', async () => {
    const staff = [vectorStaff(5000, { staffName: '分页甲' }), vectorStaff(6000.01, { staffName: '分页乙' }), vectorStaff(7000.02, { staffName: '查找丙' })];
    const { company } = await companyWithStaff(t.app, token, staff);
    await terms(company.id, '2026-01', { feeMode: 'PER_HEAD', feeAmount: 88.88 });
    await runMonth(admin, company.id, '2026-01');
    const id = (await generate(company.id, '2026-01')).body.statement.id;
    const all = (await admin('GET', `/api/settlement/${id}?size=500`)).body;
    expect(all.lineTotal).toBe(3);
    expect(all.lines).toHaveLength(3);
    const p0 = (await admin('GET', `/api/settlement/${id}?page=0&size=2`)).body;
    const p1 = (await admin('GET', `/api/settlement/${id}?page=1&size=2`)).body;
    expect(p0.lines.map((l: any) => l.seq)).toEqual([1, 2]);
    expect(p1.lines.map((l: any) => [l.seq, l.staffName, l.gross])).toEqual([[3, all.lines[2].staffName, all.lines[2].gross]]);
    expect([p0.lineTotal, p1.lineTotal]).toEqual([3, 3]);
    // the header is the whole statement's on every page: 3 heads, the fee of 3 × 88.88, 应发 the sum of all lines
    for (const d of [p0, p1]) {
      expect(d.header).toEqual(all.header);
      expect(d.header.heads).toBe(3);
      expect(cents(d.header.sums.fee)).toBe(3 * 8888);
      expect(cents(d.header.sums.gross)).toBe(sumOf(all.lines, 'gross'));
    }
    expect((await admin('GET', `/api/settlement/${id}?page=5&size=2`)).body).toMatchObject({ lines: [], lineTotal: 3 });

    const byName = (await admin('GET', `/api/settlement/${id}?keyword=${encodeURIComponent('分页')}`)).body;
    expect(byName.lines.map((l: any) => l.staffName)).toEqual(['分页甲', '分页乙']);
    expect(byName.lineTotal).toBe(2);
    const third = staff[2].idCard as string;
    const byLast4 = (await admin('GET', `/api/settlement/${id}?keyword=${third.slice(-4)}`)).body;
    expect(byLast4.lines.map((l: any) => l.staffName)).toContain('查找丙');
    const byWhole = (await admin('GET', `/api/settlement/${id}?keyword=${third}`)).body;
    expect(byWhole.lines.map((l: any) => [l.staffName, l.idCardMasked])).toEqual([['查找丙', `${third.slice(0, 6)}********${third.slice(-4)}`]]);
    // LIKE's wildcards are taken literally
    expect((await admin('GET', `/api/settlement/${id}?keyword=%25`)).body).toMatchObject({ lines: [], lineTotal: 0 });

    const tooBig = await admin('GET', `/api/settlement/${id}?size=501`);
    expect(tooBig.status).toBe(400);
    expect(JSON.stringify(tooBig.body)).toContain('500');
    expect((await admin('GET', `/api/settlement/${id}?page=-1`)).status).toBe(400);
  });
});

describe('home screen: the month close in counts', () => {
  it('counts to generate, to send, awaiting confirmation, disputed, 需重开, and the invoiced receivables unpaid to the fen', async () => {
    const month = '2026-06';
    const summary = async (as: Api = admin) => (await as('GET', `/api/settlement/month?month=${month}`)).body;
    const before = await summary();
    const delta = async () => {
      const now = await summary();
      return { toGenerate: now.toGenerate - before.toGenerate, toSend: now.toSend - before.toSend, awaiting: now.awaitingConfirmation - before.awaitingConfirmation, disputed: now.disputed - before.disputed, needsReopen: now.needsReopen - before.needsReopen, unpaid: now.unpaid - before.unpaid, unpaidFen: cents(now.unpaidAmount) - cents(before.unpaidAmount) };
    };
    const zero = { toGenerate: 0, toSend: 0, awaiting: 0, disputed: 0, needsReopen: 0, unpaid: 0, unpaidFen: 0 };
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8800, { staffName: '首页甲' }), vectorStaff(6600.66, { staffName: '首页乙' })]);
    await terms(company.id, month, { feeMode: 'PER_HEAD', feeAmount: 99.99 });
    await regime(month, 'GENERAL_6', 0.06);
    expect(await delta()).toEqual(zero);
    await runMonth(admin, company.id, month);
    expect(await delta()).toEqual({ ...zero, toGenerate: 1 });
    const s = (await generate(company.id, month)).body.statement;
    expect(await delta()).toEqual({ ...zero, toSend: 1 });
    await setState(s.id, { state: 'SENT' });
    expect(await delta()).toEqual({ ...zero, awaiting: 1 });
    await setState(s.id, { state: 'DISPUTED', note: '服务费有误' });
    expect(await delta()).toEqual({ ...zero, disputed: 1 });
    await setState(s.id, { state: 'CONFIRMED' });
    expect(await delta()).toEqual(zero);
    await setState(s.id, { state: 'INVOICED', invoiceNo: 'F606', invoiceDate: '2026-07-05', invoiceAmount: s.totalDue });
    expect(await delta()).toEqual({ ...zero, unpaid: 1, unpaidFen: cents(s.totalDue) });
    await receipt(s.id, cents(s.totalDue - 123.45) / 100);
    expect(await delta()).toEqual({ ...zero, unpaid: 1, unpaidFen: 12345 });
    await receipt(s.id, 123.45);
    expect(await delta()).toEqual(zero);
    // 反确认 after it was paid: the statement is 需重开 (and still counted nowhere else)
    expect((await admin('POST', '/api/accountsSalary/unconfirm', { companyId: company.id, month, reason: '补发' })).status).toBe(200);
    expect(await delta()).toEqual({ ...zero, needsReopen: 1 });

    // default: the current month in China time
    const current = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
    expect((await admin('GET', '/api/settlement/month')).body.month).toBe(current);
    expect((await admin('GET', '/api/settlement/month?month=2026-13')).status).toBe(400);
  });
});

describe('permissions', () => {
  it('an ordinary employee and a user without the codes get 403; SELECT reads but cannot generate', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(6000)]);
    await terms(company.id, '2026-01');
    await runMonth(admin, company.id, '2026-01');
    const s = (await generate(company.id, '2026-01')).body.statement;
    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const employee = api(t.app, await tokenFor(t, await createUser(t, { username: `emp_settle_${Date.now()}`, roleIds: [roleId], jobId })));
    const nobody = api(t.app, (await userWithCodes(t, ['ACCOUNTSSALARY_ALL'])).token);
    const reader = api(t.app, (await userWithCodes(t, ['SETTLEMENT_SELECT'])).token);
    for (const who of [employee, nobody]) {
      expect((await who('GET', '/api/settlement')).status).toBe(403);
      expect((await who('GET', `/api/settlement/${s.id}`)).status).toBe(403);
      expect((await generate(company.id, '2026-01', who)).status).toBe(403);
      expect((await setState(s.id, { state: 'SENT' }, who)).status).toBe(403);
      expect((await who('POST', `/api/settlement/${s.id}/receipts`, { amount: 1, date: '2026-02-01' })).status).toBe(403);
      expect((await who('GET', '/api/receivables')).status).toBe(403);
      expect((await who('GET', '/api/settlement/month')).status).toBe(403);
      expect((await who('GET', `/api/export/settlement/${s.id}`)).status).toBe(403);
      expect((await who('DELETE', `/api/settlement/${s.id}`)).status).toBe(403);
    }
    expect((await reader('GET', `/api/settlement/${s.id}`)).status).toBe(200);
    expect((await generate(company.id, '2026-01', reader)).status).toBe(403);
    expect((await setState(s.id, { state: 'SENT' }, reader)).status).toBe(403);
    const deleter = api(t.app, (await userWithCodes(t, ['SETTLEMENT_DELETE'])).token);
    expect((await deleter('DELETE', `/api/settlement/${s.id}`)).body).toEqual({ deleted: 1 });
  });
});
