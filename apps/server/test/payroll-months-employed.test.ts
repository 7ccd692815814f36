import { describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { multipart, workbook } from './dispatch-fixtures.ts';
import { type Api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Finding P3: the 5,000/month basic deduction counts the months employed by the withholding agent this year
// (from the hire month or January), not the salary months confirmed in the product; a company starting
// mid-year enters its year-to-date figures (期初累计数据) and the cumulative method continues from them.
//
// Worked by hand, a worker on 30,000 with every base 30,000 and no special additional deduction: personal
// insurance 2,400 + 603 + 150 + 3,600 = 6,753.00 a month.
// A. Hired 2025-07-01, first paid for August: August counts 2 months -> cumT = 30,000 - 10,000 - 6,753 =
//    13,247 -> 397.41 (the old count, 1 month, withheld 547.41: 150.00 too much). Then September 547.41,
//    October 1,509.28, November 1,824.70, December 1,824.70 with 6 months; the year 6,103.50 = the annual table
//    on 150,000 - 30,000 - 33,765 = 86,235 (x 10% - 2,520).
// B. Go-live in September 2025 with opening figures through August (8 months, income 240,000, insurance
//    54,024, tax withheld 12,275.20 = the annual table on 145,976): September to December 3,649.40 each, the
//    year 26,872.80 = the annual table on 360,000 - 60,000 - 81,036 = 218,964 (x 20% - 16,920).

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

const AGENT = '北京华派人力资源有限公司';
const months = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2025-${String(from + i).padStart(2, '0')}`);

describe('P3: months of employment with the withholding agent', () => {
  it('a July hire first paid in August gets two months of basic deduction, and six by December', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(30000, { inductionDate: '2025-07-01' })]);
    const taxes: [string, number, number][] = [];
    // The calculation says that July counts although nothing was paid for it here.
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: '2025-08' })).status).toBe(200);
    const warned = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2025-08' });
    expect(warned.body.message).toBe(
      '计算成功，共1条。注意：1人本年在本派遣单位有未录入工资的任职月份，已按这些月份无收入计算（王五（1个月））；如这些月份有收入，请先在“期初累计数据”中录入后重新计算',
    );
    expect(warned.body.unrecordedMonths).toEqual([{ idCard: expect.any(String), staffName: '王五', months: 1 }]);
    for (const month of months(8, 12)) {
      const [row] = await runMonth(call, company.id, month);
      taxes.push([month, row.monthIndex, row.tax]);
      expect(row.fiveOne).toBe(6753);
    }
    expect(taxes).toEqual([
      ['2025-08', 2, 397.41],
      ['2025-09', 3, 547.41],
      ['2025-10', 4, 1509.28],
      ['2025-11', 5, 1824.7],
      ['2025-12', 6, 1824.7],
    ]);
    const year = taxes.reduce((s, [, , tax]) => s + Math.round(tax * 100), 0);
    expect(year).toBe(610350);
  });

  it('a go-live in September with opening figures through August reproduces the annual table for the year', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(30000, { inductionDate: '2020-03-01' })]);
    const opening = await call('POST', '/api/taxOpening', {
      dispatchCompany: AGENT,
      staffName: '王五',
      idCard: staff[0].idCard,
      taxYear: 2025,
      throughMonth: '2025-08',
      months: 8,
      cumulativeIncome: 240000,
      cumulativeSocial: 54024,
      cumulativeTaxWithheld: 12275.2,
    });
    expect(opening.status, JSON.stringify(opening.body)).toBe(201);
    const taxes: number[] = [];
    for (const month of months(9, 12)) {
      const [row] = await runMonth(call, company.id, month);
      expect(row.monthIndex).toBe(Number(month.slice(5)));
      taxes.push(row.tax);
    }
    expect(taxes).toEqual([3649.4, 3649.4, 3649.4, 3649.4]);
    expect(1227520 + taxes.reduce((s, x) => s + Math.round(x * 100), 0)).toBe(2687280);
    // A month the opening figures already cover cannot be calculated again.
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: '2025-08' })).status).toBe(200);
    const refused = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2025-08' });
    // issue 20 item 5: the row is left uncalculated and reported, not the whole month refused
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ count: 0, notCalculated: 1 });
    expect(refused.body.report[0].reason).toContain('期初累计数据截至2025-08，不能再计算2025-08的工资');
  });

  it('opening figures are checked, unique per worker, agent and year, and import from Excel', async () => {
    const { staff } = await companyWithStaff(t.app, token, [vectorStaff(8000)]);
    const body = { dispatchCompany: AGENT, idCard: staff[0].idCard, taxYear: 2025, throughMonth: '2025-03', months: 3, cumulativeIncome: 24000, cumulativeTaxWithheld: 0 };
    const wrongYear = await call('POST', '/api/taxOpening', { ...body, throughMonth: '2024-12' });
    expect(wrongYear).toMatchObject({ status: 400, body: { fieldErrors: { throughMonth: '截至月份应在纳税年度2025年内' } } });
    const tooMany = await call('POST', '/api/taxOpening', { ...body, months: 4 });
    expect(tooMany).toMatchObject({ status: 400, body: { fieldErrors: { months: '累计任职受雇月份数不能超过截至月份的月数' } } });
    const missing = await call('POST', '/api/taxOpening', { ...body, cumulativeIncome: undefined });
    expect(missing).toMatchObject({ status: 400, body: { fieldErrors: { cumulativeIncome: '请输入累计收入' } } });
    expect((await call('POST', '/api/taxOpening', body)).status).toBe(201);
    expect((await call('POST', '/api/taxOpening', body)).status).toBe(409);

    // Excel: the template's headers, then an import of a second worker and a re-import that updates.
    const other = (await companyWithStaff(t.app, token, [vectorStaff(8000)])).staff[0];
    const header = ['派遣单位', '姓名', '身份证号', '纳税年度', '截至月份', '累计任职受雇月份数', '累计收入', '累计免税收入', '累计专项扣除', '累计专项附加扣除', '累计其他扣除', '累计已预缴税额', '备注'];
    const upload = async (income: number) => {
      const file = workbook([header, [AGENT, '赵六', other.idCard, 2025, '2025-06', 6, income, 0, 10818, 6000, 0, 321.45, '']]);
      const mp = multipart(file, '期初.xlsx');
      const res = await t.app.inject({ method: 'POST', url: '/api/import/taxOpening', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload });
      return res.json();
    };
    expect(await upload(48000)).toMatchObject({ inserted: 1, failed: 0 });
    expect(await upload(48000.5)).toMatchObject({ inserted: 0, failed: 0 });
    const list = await call('GET', `/api/taxOpening?idCard=${other.idCard}`);
    expect(list.body.content).toHaveLength(1);
    // the name comes from the staff record of the ID card (U1), not from the file's 姓名 column
    expect(list.body.content[0]).toMatchObject({ staffName: other.staffName, months: 6, cumulativeIncome: 48000.5, cumulativeSocial: 10818, cumulativeSpecialAdditional: 6000, cumulativeTaxWithheld: 321.45 });
  });

  it('a worker hired before the year counts from January: September is month 9', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { inductionDate: '2025-01-06' })]);
    await runMonth(call, company.id, '2025-09');
    const rows = await salaryRows(call, company.id, '2025-09');
    expect(rows[0]).toMatchObject({ monthIndex: 9, inductionDate: '2025-01-06' });
    expect(staff).toHaveLength(1);
  });
});
