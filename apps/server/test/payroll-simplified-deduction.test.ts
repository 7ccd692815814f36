import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Finding PB3 (国家税务总局公告2020年第19号): 适用6万元减除 is accepted only for a worker our records show employed by the
// same withholding agent in every month of the previous year with at most 60,000 of wage income there.

const AGENT = '北京华派人力资源有限公司';
const YEAR = new Date(Date.now() + 8 * 3600 * 1000).getUTCFullYear();
const PREVIOUS = YEAR - 1;
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

async function worker(over: Record<string, unknown> = {}) {
  const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(5000, over)]);
  return { companyId: Number(company.id), staff: staff[0] };
}
const flag = (staff: Record<string, unknown>) => admin('PUT', '/api/accountsStaff', { ...staff, simplifiedDeduction: true });
const opening = (idCard: string, throughMonth: string, months: number, cumulativeIncome: number) =>
  admin('POST', '/api/taxOpening', { dispatchCompany: AGENT, idCard, taxYear: PREVIOUS, throughMonth, months, cumulativeIncome, cumulativeTaxWithheld: 0 });

describe('适用6万元减除 needs last year at the same agent (PB3)', () => {
  it(`refuses a worker hired ${YEAR}-03 (no month of ${PREVIOUS} on record), on create and on edit`, async () => {
    const created = await admin('POST', '/api/accountsStaff', {
      ...(await import('./dispatch-fixtures.ts')).staffBody((await worker()).companyId, { idCard: vectorStaff(5000).idCard, inductionDate: `${YEAR}-03-01`, simplifiedDeduction: true }),
    });
    expect(created.body).toMatchObject({
      status: 400,
      fieldErrors: { simplifiedDeduction: `不符合6万元减除条件：${PREVIOUS}年在派遣单位“${AGENT}”缺少${PREVIOUS}-01–${PREVIOUS}-12的任职受雇记录（需上一年度每月均在本单位任职受雇）` },
      fieldErrorCodes: { simplifiedDeduction: 'SIMPLIFIED_DEDUCTION_MONTHS_MISSING' },
    });
    const { staff } = await worker({ inductionDate: `${YEAR}-03-01` });
    expect((await flag(staff)).status).toBe(400);
    // the same staff without the flag saves as before
    expect((await admin('PUT', '/api/accountsStaff', { ...staff, phone: '13900009999' })).status).toBe(204);
  });

  it('accepts a worker with the whole previous year on record at <= 60,000, and names the missing months or the income otherwise', async () => {
    const full = await worker();
    expect((await opening(full.staff.idCard, `${PREVIOUS}-12`, 12, 60000)).status).toBe(201);
    expect((await flag(full.staff)).status).toBe(204);
    expect((await admin('GET', `/api/accountsStaff/${full.staff.id}`)).body.simplifiedDeduction).toBe(true);

    const rich = await worker();
    expect((await opening(rich.staff.idCard, `${PREVIOUS}-12`, 12, 60000.01)).status).toBe(201);
    expect((await flag(rich.staff)).body).toMatchObject({
      fieldErrors: { simplifiedDeduction: `不符合6万元减除条件：${PREVIOUS}年在派遣单位“${AGENT}”的工资薪金收入60,000.01元，超过6万元` },
      fieldErrorCodes: { simplifiedDeduction: 'SIMPLIFIED_DEDUCTION_INCOME_OVER' },
    });

    // an opening of 3 months through June: January to March are missing
    const gap = await worker();
    expect((await opening(gap.staff.idCard, `${PREVIOUS}-06`, 3, 15000)).status).toBe(201);
    const refused = await flag(gap.staff);
    expect(refused.body.fieldErrors.simplifiedDeduction).toContain(`缺少${PREVIOUS}-01–${PREVIOUS}-03, ${PREVIOUS}-07–${PREVIOUS}-12的任职受雇记录`);
    const en = await t.app.inject({ method: 'PUT', url: '/api/accountsStaff', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, payload: { ...gap.staff, simplifiedDeduction: true } });
    expect(en.json().fieldErrors.simplifiedDeduction).toContain('The 60,000 deduction does not apply');
  });

  it('counts confirmed salary months of the ledger after the opening balance', async () => {
    // 5,000 a month: an opening of January-June (30,000), then July-December confirmed here (another 30,000)
    const { companyId, staff } = await worker({ inductionDate: `${PREVIOUS - 1}-05-01` });
    expect((await opening(staff.idCard, `${PREVIOUS}-06`, 6, 30000)).status).toBe(201);
    for (const m of ['07', '08', '09', '10', '11']) await runMonth(admin, companyId, `${PREVIOUS}-${m}`);
    // November is the last month on record: December missing
    expect((await flag(staff)).body.fieldErrors.simplifiedDeduction).toContain(`缺少${PREVIOUS}-12的`);
    await runMonth(admin, companyId, `${PREVIOUS}-12`);
    expect((await flag(staff)).status).toBe(204);
  });
});
