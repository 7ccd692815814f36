import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentChinaMonth } from '@app/shared/contracts/salary';
import type { SalaryFieldName } from '@app/shared/resources/salary';
import { SALARY_TABLE, salaryColumn } from '../src/modules/payroll/salaryStore.ts';
import { bearer, type TestApp } from './helpers.ts';
import { api, companyWithStaff, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';
import { taxOpeningResource } from '@app/shared/resources/taxOpening';

// The payroll flow's refusals are catalogue codes from the throw onwards (issue 21 item 2): the same refusal answers
// in Chinese without Accept-Language (byte for byte the spec's text) and in English when asked.

let t: TestApp;
let token: string;

withAdminApp((s) => {
  ({ t, token } = s);
});

type Json = Record<string, any>;

/** Sets columns of a salary row as the database holds them (fen), past the API's checks: data gone bad since generation. */
async function spoil(rowId: number, values: Partial<Record<SalaryFieldName, unknown>>) {
  const set = Object.fromEntries((Object.entries(values) as [SalaryFieldName, unknown][]).map(([k, v]) => [salaryColumn(k), v]));
  await t.app.ctx.db.updateTable(SALARY_TABLE).set(set as never).where(salaryColumn('id') as never, '=', rowId as never).execute();
}

/** `text` without the given data (names, ID cards, dictionary names): what is left must be the language's own. */
const withoutData = (text: string, data: readonly string[]) => data.reduce((rest, d) => rest.split(d).join(''), text);

const CHINESE = /[\u4e00-\u9fff]/;

async function ask(method: 'GET' | 'POST', url: string, payload: unknown, language?: string) {
  const res = await t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), ...(language ? { 'accept-language': language } : {}) } });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

describe('payroll errors in the request language', () => {
  it('confirm of an empty month, a locked month and a future month: Chinese by default, English when asked', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '语言甲', inductionDate: '2026-01-01' })]);
    const month = '2026-02';
    const body = { companyId: company.id, month };

    const emptyZh = await ask('POST', '/api/accountsSalary/confirm', body);
    expect(emptyZh).toMatchObject({ status: 400, body: { code: 'SALARY_NOTHING_TO_CONFIRM', message: '本月没有工资数据，不能确认' } });
    const emptyEn = await ask('POST', '/api/accountsSalary/confirm', body, 'en-US,en;q=0.9');
    expect(emptyEn).toMatchObject({ status: 400, body: { code: 'SALARY_NOTHING_TO_CONFIRM', message: 'There are no salary rows this month; nothing can be confirmed' } });

    expect((await ask('POST', '/api/accountsSalary/generator', body)).status).toBe(200);
    // a row not calculated: the count is a parameter, the names are data
    const staleEn = await ask('POST', '/api/accountsSalary/confirm', body, 'en');
    expect(staleEn).toMatchObject({ status: 409, body: { code: 'SALARY_NOT_CALCULATED', message: '1 salary rows are not calculated or were changed after the calculation (语言甲); calculate first' } });
    expect((await ask('POST', '/api/accountsSalary/calculate', body)).status).toBe(200);
    expect((await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true })).status).toBe(200);

    const lockedZh = await ask('POST', '/api/accountsSalary/calculate', body);
    expect(lockedZh).toMatchObject({ status: 409, body: { code: 'SALARY_LOCKED', message: '本月工资已确认，不能修改' } });
    const lockedEn = await ask('POST', '/api/accountsSalary/generator', body, 'en');
    expect(lockedEn).toMatchObject({ status: 409, body: { code: 'SALARY_LOCKED', message: 'The salaries of this month are confirmed and cannot be changed' } });
    const againEn = await ask('POST', '/api/accountsSalary/confirm', body, 'en');
    expect(againEn).toMatchObject({ status: 409, body: { code: 'SALARY_CONFIRMED', message: 'The salaries of this month are already confirmed' } });

    const reasonEn = await ask('POST', '/api/accountsSalary/unconfirm', { ...body, reason: ' ' }, 'en');
    expect(reasonEn).toMatchObject({ status: 400, body: { code: 'UNCONFIRM_REASON_REQUIRED', message: 'Please give the reason for unconfirming' } });
    expect(reasonEn.body.fieldErrors).toEqual({ reason: 'Please give the reason for unconfirming' });

    // the {companyId, month} check of the contract: the month's own message, in the language asked
    const future = `${Number(currentChinaMonth().slice(0, 4)) + 1}-01`;
    const futureZh = await ask('POST', '/api/accountsSalary/generator', { companyId: company.id, month: future });
    expect(futureZh.body.message).toBe(`不能处理未来月份（${future}）的工资，当前月份为${currentChinaMonth()}`);
    const futureEn = await ask('POST', '/api/accountsSalary/generator', { companyId: company.id, month: future }, 'en');
    expect(futureEn).toMatchObject({ status: 400, body: { message: `Salaries of a future month (${future}) cannot be processed; the current month is ${currentChinaMonth()}` } });
    expect(futureEn.body.fieldErrorCodes).toEqual({ month: 'SALARY_FUTURE_MONTH' });
    const costEn = await ask('GET', `/api/accountsSalary/costSummary?month=${future}`, undefined, 'en');
    expect(costEn).toMatchObject({ status: 400, body: { code: 'SALARY_FUTURE_MONTH', fieldErrors: { month: 'A future month cannot be chosen' } } });

    for (const res of [emptyEn, staleEn, lockedEn, againEn, reasonEn, futureEn, costEn]) {
      // names of people are data; everything else of the message is English
      expect(res.body.message.replace('语言甲', ''), res.body.code).not.toMatch(CHINESE);
    }
  });

  it('leaves no Chinese text in a throw of the payroll module nor of the payroll engine', () => {
    const dirs = [path.resolve(import.meta.dirname, '../src/modules/payroll'), path.resolve(import.meta.dirname, '../../../packages/shared/src/payroll')];
    const throwsChinese =
      /(badRequest|conflict|notFound|forbidden|unauthorized|tooManyRequests)\(\s*[`'"][^`'"]*[\u4e00-\u9fff]|new AppError\(\s*\d+\s*,|validationError\(\{\s*[\w[\]. ]+:\s*[`'"][^`'"]*[\u4e00-\u9fff]|new (RowDataProblem|RateError|PayrollInputError|Error)\([^)]*[`'"][^`'"]*[\u4e00-\u9fff]|fail\([^)]*[`'"][^`'"]*[\u4e00-\u9fff]/;
    let scanned = 0;
    for (const dir of dirs) {
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
        scanned++;
        const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
        for (const [i, line] of lines.entries()) expect(line, `${file}:${i + 1}`).not.toMatch(throwsChinese);
      }
    }
    expect(scanned).toBeGreaterThan(40);
    // the pattern catches what it is for: a Chinese reason written into the engine's throw
    expect("throw new RowDataProblem(`缺少` + label);").toMatch(throwsChinese);
    expect("throw new RateError('RATE_DICT_MISSING', { dict });").not.toMatch(throwsChinese);
  });

  it('计算 and 确认 over bad rows: each row\'s reason is a code, English when asked, the Chinese byte for byte', async () => {
    const names = ['正常行', '缺基数行', '保险错行', '补偿金行', '期初行'];
    const { company, staff } = await companyWithStaff(
      t.app,
      token,
      names.map((staffName) => vectorStaff(8000, { staffName, inductionDate: '2026-01-01' })),
    );
    const month = '2026-02';
    const body = { companyId: company.id, month };
    expect((await ask('POST', '/api/accountsSalary/generator', body)).body).toMatchObject({ message: '生成成功，共5条' });
    const regenerated = await ask('POST', '/api/accountsSalary/generator', body, 'en');
    expect(regenerated.body).toMatchObject({ message: 'Generated: 5 rows: 0 people added, 0 removed, 0 hand edits kept' });
    const rows = await salaryRows(api(t.app, token), company.id, month);
    const byName = Object.fromEntries(rows.map((r: Json) => [r.staffName, r]));
    await spoil(byName.缺基数行.id, { yanglaoBase: null });
    await spoil(byName.保险错行.id, { insureType: '四险' });
    // the seeded rate dictionaries have no 当地上年职工平均工资
    await spoil(byName.补偿金行.id, { severance: 100000 });
    const opening = { dispatchCompany: byName.期初行.dispatchCompany, idCard: byName.期初行.idCard, taxYear: 2026, throughMonth: '2026-03', months: 3, cumulativeIncome: 24000, cumulativeTaxWithheld: 0 };
    expect((await ask('POST', '/api/taxOpening', opening)).status).toBe(201);

    const zh = await ask('POST', '/api/accountsSalary/calculate', body);
    expect(zh.status).toBe(200);
    expect(zh.body.message).toBe('计算完成，已计算1条，4条数据有误未计算（原因见计算提示），修改后请重新计算');
    const reasonsZh = Object.fromEntries((zh.body.report as Json[]).filter((i) => i.kind === 'rowNotCalculated').map((i) => [i.staffName, i.reason]));
    const dict = /费率字典 (\S+) 中填写/.exec(reasonsZh.补偿金行)?.[1] ?? '';
    expect(reasonsZh).toEqual({
      缺基数行: '本行未计算：养老保险基数缺失或无效（缺少养老保险基数（yanglaoBase））；请修改后重新计算',
      保险错行: '本行未计算：保险种类“四险”无法识别（应为五险一金、五险、三险一金、三险或不参保）；请修改后重新计算',
      补偿金行: `本行未计算：发放经济补偿金需要当地上年职工平均工资：请在费率字典 ${dict} 中填写 averageWageAnnual（元/年）；请修改后重新计算`,
      期初行: '本行未计算：期初累计数据截至2026-03，不能再计算2026-02的工资；请修改后重新计算',
    });
    expect(dict).not.toBe('');

    const en = await ask('POST', '/api/accountsSalary/calculate', body, 'en');
    expect(en.status).toBe(200);
    expect(en.body.message).toBe('Calculation finished: 1 rows calculated, 4 rows wrong and not calculated (see the calculation notes for why); correct them and calculate again');
    const reasonsEn = Object.fromEntries((en.body.report as Json[]).filter((i) => i.kind === 'rowNotCalculated').map((i) => [i.staffName, i.reason]));
    expect(reasonsEn).toEqual({
      缺基数行: 'This row was not calculated: Pension base is missing or invalid (Pension base (yanglaoBase) is missing); correct it and calculate again',
      保险错行: 'This row was not calculated (The insurance type "四险" is not recognised (expected five insurances and housing fund, five insurances, three insurances and housing fund, three insurances, or not insured)); correct it and calculate again',
      补偿金行: `This row was not calculated (Paying severance needs the local average wage of last year: enter averageWageAnnual (yuan a year) in the rate dictionary ${dict}); correct it and calculate again`,
      期初行: 'This row was not calculated (The opening tax balances run through 2026-03; the salary of 2026-02 can no longer be calculated); correct it and calculate again',
    });
    const data = [...names, ...staff.map((s) => String(s.idCard)), dict, '四险'];
    for (const item of en.body.report as Json[]) expect(withoutData(item.reason, data), item.code).not.toMatch(CHINESE);
    const report = await ask('GET', `/api/accountsSalary/report?companyId=${company.id}&month=${month}`, undefined, 'en');
    expect(report.body.items.map((i: Json) => i.reason).sort()).toEqual((en.body.report as Json[]).map((i) => i.reason).sort());

    // 确认 of rows that went bad after their calculation: the 409 lists each row's reason in the language asked
    await spoil(byName.缺基数行.id, { yanglaoBase: 800000 });
    await spoil(byName.保险错行.id, { insureType: '五险一金' });
    await spoil(byName.补偿金行.id, { severance: 0 });
    await t.app.ctx.db.deleteFrom(taxOpeningResource.table as never).where('id_card' as never, '=', byName.期初行.idCard).execute();
    expect((await ask('POST', '/api/accountsSalary/calculate', body)).body).toMatchObject({ count: 5, notCalculated: 0 });
    await spoil(byName.缺基数行.id, { yanglaoBase: null });
    await spoil(byName.保险错行.id, { insureType: '四险' });
    const card = (name: string) => byName[name].idCard;
    const refusedZh = await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true });
    expect(refusedZh).toMatchObject({
      status: 409,
      body: {
        code: 'SALARY_ROWS_AT_CONFIRM',
        message: `以下2条工资数据有误，未做任何修改：缺基数行（${card('缺基数行')}）：缺少养老保险基数（yanglaoBase）；保险错行（${card('保险错行')}）：保险种类“四险”无法识别（应为五险一金、五险、三险一金、三险或不参保）`,
      },
    });
    expect(refusedZh.body.fieldErrors[`row${byName.缺基数行.id}`]).toBe(`缺基数行（${card('缺基数行')}）：缺少养老保险基数（yanglaoBase）`);
    const refusedEn = await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true }, 'en');
    expect(refusedEn).toMatchObject({
      status: 409,
      body: {
        code: 'SALARY_ROWS_AT_CONFIRM',
        message: `These 2 salary rows are wrong; nothing was changed: 缺基数行 (${card('缺基数行')}): Pension base (yanglaoBase) is missing; 保险错行 (${card('保险错行')}): The insurance type "四险" is not recognised (expected five insurances and housing fund, five insurances, three insurances and housing fund, three insurances, or not insured)`,
      },
    });
    expect(refusedEn.body.fieldErrorCodes[`row${byName.保险错行.id}`]).toBe('SALARY_ROW_PROBLEM');
    expect(withoutData(refusedEn.body.message, data)).not.toMatch(CHINESE);
    for (const text of Object.values(refusedEn.body.fieldErrors as Record<string, string>)) expect(withoutData(text, data)).not.toMatch(CHINESE);

    // fixed: 确认 and 反确认 answer their success in the language asked, the Chinese byte for byte
    await spoil(byName.缺基数行.id, { yanglaoBase: 800000 });
    await spoil(byName.保险错行.id, { insureType: '五险一金' });
    expect((await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true }, 'en')).body).toMatchObject({ message: 'Confirmed: 5 rows' });
    expect((await ask('POST', '/api/accountsSalary/unconfirm', { ...body, reason: '核对' })).body).toMatchObject({ message: '反确认成功，共5条' });
    expect((await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true })).body).toMatchObject({ message: '确认成功，共5条' });
    expect((await ask('POST', '/api/acPayslip/generate', body, 'en')).body).toMatchObject({ message: 'Payslips generated: 5' });
    expect((await ask('POST', '/api/acPayslip/generate', body)).body).toMatchObject({ message: '生成成功，共5条' });
    // the payslips generated over the confirmed month are withdrawn with it
    expect((await ask('POST', '/api/accountsSalary/unconfirm', { ...body, reason: 'check' }, 'en')).body).toMatchObject({
      message: 'Unconfirmed: 5 rows; 5 payslips were withdrawn: generate them again after confirming again',
    });
    expect((await ask('POST', '/api/accountsSalary/confirm', { ...body, acknowledgeWarnings: true })).status).toBe(200);
    expect((await ask('POST', '/api/acPayslip/generate', body)).status).toBe(200);
    expect((await ask('POST', '/api/accountsSalary/unconfirm', { ...body, reason: '核对' })).body).toMatchObject({ message: '反确认成功，共5条，已撤回5张工资条，重新确认后请重新生成' });
  });
});
