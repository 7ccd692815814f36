import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken, multipart, workbook } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Findings PB1, PB2: the limits of 专项附加扣除 and 其他扣除 (国发〔2018〕41号, 国发〔2022〕8号, 国发〔2023〕13号,
// 财税〔2017〕39号, 财政部 税务总局公告2022年第34号) are dated rows of 专项附加扣除标准; an amount over the rule in force in
// its month is refused with the limit in the message, on the form and on import.

const AGENT = '北京华派人力资源有限公司';
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

async function worker(name: string, salary = 20000) {
  const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: name, salary })]);
  return { companyId: Number(company.id), idCard: String(staff[0].idCard) };
}

describe('monthly limits per category (PB2)', () => {
  it('refuses each amount over its limit with the limit in the message, and accepts the limit itself', async () => {
    const { idCard } = await worker('上限甲');
    const post = (month: string, amounts: Record<string, unknown>) => admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month, ...amounts });
    const refused = async (amounts: Record<string, unknown>, field: string, message: string, code: string) => {
      const r = await post('2026-01', amounts);
      expect(r.status, JSON.stringify(amounts)).toBe(400);
      expect(r.body.fieldErrors[field]).toBe(message);
      expect(r.body.fieldErrorCodes[field]).toBe(code);
    };
    // the finding's five January rows, each once saved with 添加成功
    await refused({ housingRent: 2000 }, 'housingRent', '住房租金（第1类城市）每月最多1,500元', 'DEDUCTION_CAP_RENT_TIER');
    await refused({ housingLoanInterest: 1000, housingRent: 1500 }, 'housingRent', '住房贷款利息和住房租金不能在同一月份同时扣除', 'DEDUCTION_LOAN_RENT_EXCLUSIVE');
    await refused({ elderlySupport: 3500 }, 'elderlySupport', '赡养老人每月最多3,000元', 'DEDUCTION_CAP_MONTHLY');
    await refused({ housingLoanInterest: 1500 }, 'housingLoanInterest', '住房贷款利息每月最多1,000元', 'DEDUCTION_CAP_MONTHLY');
    await refused({ continuingEducation: 5000 }, 'continuingEducation', '继续教育本月最多400元（学历继续教育每月400元，取得职业资格证书当年另加3,600元）', 'DEDUCTION_CAP_CONTINUING');
    // the other limits
    await refused({ continuingEducation: 5000, certificateThisMonth: true }, 'continuingEducation', '继续教育本月最多4,000元（学历继续教育每月400元，取得职业资格证书当年另加3,600元）', 'DEDUCTION_CAP_CONTINUING');
    await refused({ childEducation: 2000.01 }, 'childEducation', '子女教育每名子女每月最多2,000元，1名子女每月最多2,000元', 'DEDUCTION_CAP_PER_CHILD');
    await refused({ childEducation: 4500, childEducationChildren: 2 }, 'childEducation', '子女教育每名子女每月最多2,000元，2名子女每月最多4,000元', 'DEDUCTION_CAP_PER_CHILD');
    await refused({ infantCare: 2500 }, 'infantCare', '3岁以下婴幼儿照护每名子女每月最多2,000元，1名子女每月最多2,000元', 'DEDUCTION_CAP_PER_CHILD');
    await refused({ elderlySupport: 1600, elderlyOnlyChild: false }, 'elderlySupport', '赡养老人（非独生子女）本人分摊每月最多1,500元', 'DEDUCTION_CAP_ELDERLY_SHARED');
    await refused({ housingRent: 1200, housingRentCityTier: '2' }, 'housingRent', '住房租金（第2类城市）每月最多1,100元', 'DEDUCTION_CAP_RENT_TIER');
    await refused({ housingRent: 900, housingRentCityTier: '3' }, 'housingRent', '住房租金（第3类城市）每月最多800元', 'DEDUCTION_CAP_RENT_TIER');
    await refused({ healthInsurance: 200.01 }, 'healthInsurance', '商业健康险每月最多200元', 'DEDUCTION_CAP_MONTHLY');
    // several at once: each field has its own message
    const many = await post('2026-01', { housingRent: 2000, elderlySupport: 3500 });
    expect(Object.keys(many.body.fieldErrors).sort()).toEqual(['elderlySupport', 'housingRent']);
    // in another language, with the field's label translated
    const en = await t.app.inject({ method: 'POST', url: '/api/taxDeduction', headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, payload: { dispatchCompany: AGENT, idCard, month: '2026-01', housingLoanInterest: 1500 } });
    expect(en.json().fieldErrors.housingLoanInterest).toBe('Housing loan interest is at most 1,000 yuan a month');

    // every limit itself is accepted (two children, the certificate month, the shared elderly support)
    expect((await post('2026-01', { childEducation: 4000, childEducationChildren: 2, infantCare: 2000, elderlySupport: 3000, housingRent: 1500, continuingEducation: 400, healthInsurance: 200 })).status).toBe(201);
    expect((await post('2026-02', { housingLoanInterest: 1000, elderlySupport: 1500, elderlyOnlyChild: false, continuingEducation: 4000, certificateThisMonth: true })).status).toBe(201);
    // 职业资格: once a year
    const again = await post('2026-05', { continuingEducation: 3600, certificateThisMonth: true });
    expect(again.body).toMatchObject({ status: 400, fieldErrors: { certificateThisMonth: '职业资格继续教育每年只扣除一次，本年已在2026-02扣除' } });
    expect((await post('2027-05', { continuingEducation: 3600, certificateThisMonth: true })).status).toBe(201);
  });

  it('the limit of the month: a new row of 专项附加扣除标准 changes it from its month on, earlier months keep the old one', async () => {
    const { idCard } = await worker('上限乙');
    // 2022: 子女教育 1,000 (国发〔2018〕41号); from 2023-01: 2,000 (国发〔2023〕13号)
    const post = (month: string, childEducation: number) => admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month, childEducation });
    expect((await post('2022-12', 2000)).body.fieldErrors.childEducation).toBe('子女教育每名子女每月最多1,000元，1名子女每月最多1,000元');
    expect((await post('2023-01', 2000)).status).toBe(201);
    // a new law is a row, not a release
    const rule = await admin('POST', '/api/taxDeductionCap', { rule: 'childEducation', validFrom: '2031-01', amount: 2500, basis: '测试' });
    expect(rule.status).toBe(201);
    expect((await post('2030-12', 2500)).status).toBe(400);
    expect((await post('2031-01', 2500)).status).toBe(201);
    expect((await admin('POST', '/api/taxDeductionCap', { rule: 'childEducation', validFrom: '2031-01', amount: 3000 })).status).toBe(409);
    expect((await admin('POST', '/api/taxDeductionCap', { rule: 'noSuchRule', validFrom: '2031-01', amount: 3000 })).status).toBe(400);
    const seeded = await admin('GET', '/api/taxDeductionCap?rule=privatePension');
    expect(seeded.body.content).toEqual([expect.objectContaining({ rule: 'privatePension', validFrom: '2022-01', amount: 12000, basis: '财政部 税务总局公告2022年第34号' })]);
  });
});

describe('个人养老金: 12,000 a year across the months (PB1)', () => {
  it("refuses February's 2,000 after January's 12,000, and February is then withheld as the finding expects", async () => {
    const { companyId, idCard } = await worker('养老金甲', 30000);
    const jan = await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-01', privatePension: 12000, healthInsurance: 200 });
    expect(jan.status).toBe(201);
    const feb = await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-02', privatePension: 2000, healthInsurance: 200 });
    expect(feb.body).toMatchObject({
      status: 400,
      fieldErrors: { privatePension: '个人养老金每年最多12,000元，本年在该派遣单位已扣除12,000元，本月最多0元' },
      fieldErrorCodes: { privatePension: 'DEDUCTION_PENSION_YEARLY' },
    });
    // raising January over the year's total is refused too; lowering it frees February
    expect((await admin('PUT', '/api/taxDeduction', { ...jan.body, privatePension: 12000.01 })).status).toBe(400);
    expect((await admin('POST', '/api/taxDeduction', { dispatchCompany: AGENT, idCard, month: '2026-02', healthInsurance: 200 })).status).toBe(201);
    // 30,000 a month on bases of 8,000 (五险一金 1,803.00): February cumulative taxable
    // 60,000 - 10,000 - 3,606 - 12,400 = 33,994.00 -> 3 % = 1,019.82, less January's 329.91 = 689.91
    await runMonth(admin, companyId, '2026-01');
    const [february] = await runMonth(admin, companyId, '2026-02');
    expect(february).toMatchObject({ otherDeduct: 200, cumulativeTaxable: 33994, tax: 689.91 });
  });

  it('an import checks the months of the file together and reports the row over the year', async () => {
    const { idCard } = await worker('养老金乙');
    const header = ['派遣单位', '身份证号', '月份', '个人养老金', '住房租金'];
    const mp = multipart(
      workbook([
        header,
        [AGENT, idCard, '2026-01', 10000, 0],
        [AGENT, idCard, '2026-02', 2000, 0],
        [AGENT, idCard, '2026-03', 1, 0],
        [AGENT, idCard, '2026-04', 0, 1600],
      ]),
      '扣除.xlsx',
    );
    const res = await t.app.inject({ method: 'POST', url: '/api/import/taxDeduction', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload });
    expect(res.json()).toMatchObject({
      total: 4,
      inserted: 2,
      failed: 2,
      errors: [
        { row: 4, column: '个人养老金', message: '个人养老金每年最多12,000元，本年在该派遣单位已扣除12,000元，本月最多0元' },
        { row: 5, column: '住房租金', message: '住房租金（第1类城市）每月最多1,500元' },
      ],
    });
  });
});
