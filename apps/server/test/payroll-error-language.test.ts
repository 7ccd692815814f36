import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentChinaMonth } from '@app/shared/contracts/salary';
import { bearer, type TestApp } from './helpers.ts';
import { companyWithStaff, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// The payroll flow's refusals are catalogue codes from the throw onwards (issue 21 item 2): the same refusal answers
// in Chinese without Accept-Language (byte for byte the spec's text) and in English when asked.

let t: TestApp;
let token: string;

withAdminApp((s) => {
  ({ t, token } = s);
});

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

  it('leaves no Chinese text in a throw of the payroll module', () => {
    const dir = path.resolve(import.meta.dirname, '../src/modules/payroll');
    const throwsChinese = /(badRequest|conflict|notFound|forbidden|unauthorized|tooManyRequests)\(\s*[`'"][^`'"]*[\u4e00-\u9fff]|new AppError\(\s*\d+\s*,|validationError\(\{\s*[\w[\]. ]+:\s*[`'"][^`'"]*[\u4e00-\u9fff]/;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
      for (const [i, line] of lines.entries()) expect(line, `${file}:${i + 1}`).not.toMatch(throwsChinese);
    }
  });
});
