import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmatchedTaxInputs } from '../src/modules/payroll/inputMatching.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken, multipart, scopedUser, uniq, workbook } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, vectorStaff } from './payroll-fixtures.ts';

// Findings U1 and U7: 专项附加扣除, 期初累计数据 and 员工加班扣款 name a withholding agent of the dispatch_company
// dictionary and a person with a staff record there, or they are refused (form and import); older rows that
// match nobody are listed with the reason (GET /api/payroll/unmatchedInputs, inputMatching.ts).

const AGENT = '北京华派人力资源有限公司';
const OTHER_AGENT = '北京众信劳务派遣有限公司';
let t: TestApp;
let token: string;
let admin: Api;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function worker(name: string, company: Record<string, unknown> = {}) {
  const { company: c, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: name })], company);
  return { companyId: Number(c.id), companyName: String(c.companyName), idCard: String(staff[0].idCard) };
}

async function importDeductions(rows: unknown[][]) {
  const header = ['派遣单位', '姓名', '身份证号', '月份', '子女教育'];
  const mp = multipart(workbook([header, ...rows]), '专项附加扣除.xlsx');
  const res = await t.app.inject({ method: 'POST', url: '/api/import/taxDeduction', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload });
  return res.json();
}

describe('专项附加扣除 and 期初累计数据: agent and person chosen, not typed (U1)', () => {
  it('refuses a client company as the agent, an unknown ID card and a person employed under another agent; takes the name from the staff record', async () => {
    const w = await worker('匹配甲');
    const row = { dispatchCompany: AGENT, idCard: w.idCard, staffName: '随手写的名字', month: '2026-11', childEducation: 2000 };
    // repro 1: saved under the client's name
    const client = await admin('POST', '/api/taxDeduction', { ...row, dispatchCompany: w.companyName });
    expect(client.status).toBe(400);
    expect(client.body.fieldErrors.dispatchCompany).toBe(`“${w.companyName}”不是派遣单位（扣缴义务人），请从派遣单位中选择`);
    expect(client.body.fieldErrorCodes).toEqual({ dispatchCompany: 'TAX_INPUT_AGENT_UNKNOWN' });
    const english = await t.app.inject({ method: 'POST', url: '/api/taxDeduction', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, payload: { ...row, dispatchCompany: w.companyName } });
    expect(english.json().fieldErrors.dispatchCompany).toBe(`"${w.companyName}" is not a withholding agent (dispatch company); choose one of the dispatch companies`);

    const unknown = await admin('POST', '/api/taxDeduction', { ...row, idCard: '110101199001011237' });
    expect(unknown.body).toMatchObject({ status: 400, fieldErrorCodes: { idCard: 'TAX_INPUT_STAFF_UNKNOWN' } });
    const elsewhere = await admin('POST', '/api/taxDeduction', { ...row, dispatchCompany: OTHER_AGENT });
    expect(elsewhere.body).toMatchObject({ status: 400, fieldErrors: { idCard: `身份证号为${w.idCard}的员工不在派遣单位“${OTHER_AGENT}”任职` }, fieldErrorCodes: { idCard: 'TAX_INPUT_STAFF_NOT_AT_AGENT' } });

    const ok = await admin('POST', '/api/taxDeduction', row);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ dispatchCompany: AGENT, staffName: '匹配甲' });
    // an edit is held to the same rule
    expect((await admin('PUT', '/api/taxDeduction', { ...ok.body, dispatchCompany: w.companyName })).status).toBe(400);
  });

  it('期初累计数据: repro 2 (under the client) refused, under the agent accepted', async () => {
    const w = await worker('匹配乙');
    const body = { idCard: w.idCard, taxYear: 2026, throughMonth: '2026-10', months: 10, cumulativeIncome: 80000, cumulativeTaxWithheld: 300 };
    const client = await admin('POST', '/api/taxOpening', { ...body, dispatchCompany: w.companyName });
    expect(client.body).toMatchObject({ status: 400, fieldErrorCodes: { dispatchCompany: 'TAX_INPUT_AGENT_UNKNOWN' } });
    expect((await admin('POST', '/api/taxOpening', { ...body, dispatchCompany: AGENT })).status).toBe(201);
  });

  it('an import reports each unmatched row with its reason and saves the others', async () => {
    const w = await worker('导入甲');
    const result = await importDeductions([
      [AGENT, '', w.idCard, '2026-10', 2000],
      [w.companyName, '', w.idCard, '2026-09', 2000],
      [AGENT, '', '110101199001011237', '2026-10', 1000],
      [OTHER_AGENT, '', w.idCard, '2026-08', 1000],
    ]);
    expect(result).toMatchObject({ total: 4, inserted: 1, failed: 3 });
    expect(result.errors).toEqual([
      { row: 3, column: '派遣单位', message: `“${w.companyName}”不是派遣单位（扣缴义务人），请从派遣单位中选择` },
      { row: 4, column: '身份证号', message: '没有身份证号为110101199001011237的员工，请从员工中选择' },
      { row: 5, column: '身份证号', message: `身份证号为${w.idCard}的员工不在派遣单位“${OTHER_AGENT}”任职` },
    ]);
    const saved = await admin('GET', `/api/taxDeduction?idCard=${w.idCard}`);
    expect(saved.body.content.map((r: { month: string; staffName: string }) => [r.month, r.staffName])).toEqual([['2026-10', '导入甲']]);
  });
});

describe('rows that match nobody (saved before these rules)', () => {
  it('lists them with the reason, per table, month and agent; unmatchedTaxInputs filters by company for the calculate report', async () => {
    const w = await worker('旧数据甲');
    const other = await worker('旧数据乙');
    const db = t.app.ctx.db;
    const now = new Date().toISOString();
    const deduction = (agent: string, idCard: string, month: string) =>
      db.insertInto('accounts_tax_deduction').values({ dispatch_company: agent, id_card: idCard, staff_name: 'x', month, create_time: now, update_time: now } as never).execute();
    await deduction(w.companyName, w.idCard, '2031-01'); // U1 repro: under the client's name
    await deduction(AGENT, '110101199001011237', '2031-01'); // nobody has the ID card
    await deduction(OTHER_AGENT, w.idCard, '2031-01'); // the person works under another agent
    await deduction(AGENT, w.idCard, '2031-01'); // fine
    await db
      .insertInto('accounts_tax_opening')
      .values({ dispatch_company: w.companyName, id_card: w.idCard, staff_name: 'x', tax_year: 2031, through_month: '2031-03', months: 3, cumulative_income: 0, cumulative_tax_withheld: 0, create_time: now, update_time: now } as never)
      .execute();
    const extra = (companyId: number | null, idCard: string | null) =>
      db.insertInto('accounts_staff_extra').values({ staff_company_id: companyId, staff_id_card: idCard, month: '2031-01', create_time: now, update_time: now } as never).execute();
    await extra(null, null); // U7: the blank row
    await extra(w.companyId, other.idCard); // a colleague of another company
    await extra(w.companyId, w.idCard.toLowerCase()); // fine: ID cards compare as staff records keep them

    const list = await admin('GET', '/api/payroll/unmatchedInputs?month=2031-01');
    expect(list.status).toBe(200);
    const seen = list.body.content.map((r: Record<string, unknown>) => [r.table, r.agent, r.idCard, r.reason]);
    expect(seen).toEqual([
      ['taxDeduction', w.companyName, w.idCard, 'AGENT_UNKNOWN'],
      ['taxDeduction', AGENT, '110101199001011237', 'STAFF_UNKNOWN'],
      ['taxDeduction', OTHER_AGENT, w.idCard, 'STAFF_NOT_AT_AGENT'],
      ['taxOpening', w.companyName, w.idCard, 'AGENT_UNKNOWN'],
      ['accountsStaffExtra', null, null, 'COMPANY_MISSING'],
      ['accountsStaffExtra', AGENT, other.idCard, 'STAFF_NOT_AT_COMPANY'],
    ]);
    expect((await admin('GET', '/api/payroll/unmatchedInputs?month=2031-01&table=taxOpening')).body.content).toHaveLength(1);
    expect((await admin('GET', `/api/payroll/unmatchedInputs?month=2031-01&agent=${encodeURIComponent(OTHER_AGENT)}`)).body.content).toHaveLength(1);
    expect((await admin('GET', '/api/payroll/unmatchedInputs?month=2031-13')).status).toBe(400);

    // the calculate report's view: what concerns one client company's payroll of the month
    const forCompany = await unmatchedTaxInputs(db, { companyId: w.companyId, month: '2031-01' });
    expect(forCompany.map((r) => [r.table, r.reason])).toEqual([
      ['taxDeduction', 'AGENT_UNKNOWN'],
      ['taxDeduction', 'STAFF_UNKNOWN'],
      ['taxDeduction', 'STAFF_NOT_AT_AGENT'],
      ['taxOpening', 'AGENT_UNKNOWN'],
      ['accountsStaffExtra', 'STAFF_NOT_AT_COMPANY'],
    ]);
    expect(await unmatchedTaxInputs(db, { companyId: other.companyId, month: '2031-01', tables: ['accountsStaffExtra'] })).toEqual([]);
    expect((await unmatchedTaxInputs(db, { idCards: [other.idCard], month: '2031-01' })).map((r) => r.reason)).toEqual(['STAFF_NOT_AT_COMPANY']);

    // an overtime-only clerk sees the overtime rows, not the tax inputs
    const clerk = await scopedUser(t.app, { username: uniq('ot'), codes: ['ACCOUNTSSTAFFEXTRA_SELECT'], dataScope: '全部' });
    const own = await t.app.inject({ method: 'GET', url: '/api/payroll/unmatchedInputs?month=2031-01', headers: { authorization: `Bearer ${clerk.token}` } });
    expect(own.json().content.map((r: { table: string }) => r.table)).toEqual(['accountsStaffExtra', 'accountsStaffExtra']);
    const nobody = await scopedUser(t.app, { username: uniq('no'), codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '全部' });
    expect((await t.app.inject({ method: 'GET', url: '/api/payroll/unmatchedInputs', headers: { authorization: `Bearer ${nobody.token}` } })).statusCode).toBe(403);
  });

  it('the person picker finds staff by name or ID card, with the client company and its agent', async () => {
    const w = await worker(`选择${uniq('')}`.slice(0, 12));
    const byCard = await admin('GET', `/api/payroll/staffOptions?q=${w.idCard.slice(-8)}`);
    expect(byCard.body.content).toEqual([expect.objectContaining({ idCard: w.idCard, companyId: w.companyId, companyName: w.companyName, dispatchCompany: AGENT })]);
    const name = byCard.body.content[0].staffName as string;
    const byName = await admin('GET', `/api/payroll/staffOptions?q=${encodeURIComponent(name)}&agent=${encodeURIComponent(AGENT)}`);
    expect(byName.body.content.map((r: { idCard: string }) => r.idCard)).toContain(w.idCard);
    expect((await admin('GET', `/api/payroll/staffOptions?q=${encodeURIComponent(name)}&agent=${encodeURIComponent(OTHER_AGENT)}`)).body.content).toEqual([]);
    // wildcards are text
    expect((await admin('GET', '/api/payroll/staffOptions?q=%25')).body.content).toEqual([]);
  });
});
