import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, multipart, sheetRows, workbook } from './dispatch-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// 调基 with back pay (issue 24 item 2) on the real database through app.inject (SQLite, PostgreSQL, MariaDB).
// Seeded rates (bencheng@2025-07, in force from 2025-07 on): personal 8 % / 2 % + 3.00 / 0.5 % / HF 12 % (to the yuan),
// employer 16 % / 9.8 % / 0.5 % / 生育 0 / HF 12 %, 工伤 0.4 % (北京华派's dictionary ratio), floor 7,162, ceiling 35,811,
// HF floor 2,540.

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

async function upload(file: Buffer, as = token, language?: string) {
  const m = multipart(file, 'bases.xlsx');
  const languageHeader = language ? { 'accept-language': language } : {};
  const res = await t.app.inject({ method: 'POST', url: '/api/import/siAdjust', headers: { ...m.headers, ...bearer(as), ...languageHeader }, payload: m.payload });
  return { status: res.statusCode, body: res.json() };
}

const cents = (yuan: number) => Math.round(yuan * 100);
const FROZEN = ['gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'tax', 'realSalary', 'employerTotal', 'labourCost', 'yanglaoBase', 'gjjBase', 'tag', 'siBackSelf', 'siBackCompany'];
const frozen = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(FROZEN.map((k) => [k, r[k]])));

describe('调基 from July, applied after September was confirmed', () => {
  it('places July, August and September 补差 into October to the fen; the confirmed months stay as they were; applying again adds nothing', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '调基甲' }), vectorStaff(8000, { staffName: '调基乙' })]);
    const [a] = staff;
    for (const m of ['2026-07', '2026-08', '2026-09']) await runMonth(admin, company.id, m);
    const before = await Promise.all(['2026-07', '2026-08', '2026-09'].map(async (m) => frozen(await salaryRows(admin, company.id, m))));

    // 甲's new base 10,333.33 for every insurance (社保基数 + 公积金基数); 乙 is not in the file and keeps 8,000
    const file = workbook([
      ['2026年社保基数调整'],
      ['姓名', '身份证号', '社保基数', '公积金基数'],
      ['调基甲', a.idCard, 10333.33, '10,333.33'],
    ]);
    const read = await upload(file);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.bases).toEqual([{ idCard: a.idCard, staffName: '调基甲', base: 10333.33, gongjijin: 10333.33 }]);
    const body = { companyId: company.id, fromMonth: '2026-07', source: 'upload', bases: read.body.bases };

    // One month by hand, old base 8,000 -> new 10,333.33:
    //   personal  养老 826.67 - 640.00 = 186.67; 医疗 206.67 + 3 - 163.00 = 46.67; 失业 51.67 - 40.00 = 11.67;
    //             公积金 1,240 (1,239.9996 to the yuan) - 960 = 280.00 -> 525.01 a month
    //   employer  养老 1,653.33 - 1,280.00 = 373.33; 医疗 1,012.67 - 784.00 = 228.67; 失业 11.67; 工伤 41.33 - 32.00 = 9.33;
    //             生育 0; 公积金 280.00 -> 903.00 a month
    const preview = await admin('POST', '/api/siAdjust/preview', body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ confirmedMonths: ['2026-07', '2026-08', '2026-09'], targetMonth: '2026-10', backRows: 15, backPeople: 1, totalSelf: 1575.03, totalCompany: 2709 });
    expect(preview.body.byMonth).toEqual(['2026-07', '2026-08', '2026-09'].map((month) => ({ month, rows: 5, self: 525.01, company: 903 })));
    const person = preview.body.people[0];
    expect(person.items.find((i: { insurance: string }) => i.insurance === 'yanglao')).toEqual({ insurance: 'yanglao', old: 8000, new: 10333.33, clamp: null, requested: 10333.33 });
    const july = Object.fromEntries(person.backPay.filter((p: { month: string }) => p.month === '2026-07').map((p: { insurance: string; self: number; company: number }) => [p.insurance, [p.self, p.company]]));
    expect(july).toEqual({ yanglao: [186.67, 373.33], yiliao: [46.67, 228.67], shiye: [11.67, 11.67], gongshang: [0, 9.33], gongjijin: [280, 280] });

    const applied = await admin('POST', '/api/siAdjust/apply', body);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ targetMonth: '2026-10', staffUpdated: 1, backRows: 15, totalSelf: 1575.03, totalCompany: 2709 });
    // the same bases again: nothing more is owed
    const again = await admin('POST', '/api/siAdjust/apply', body);
    expect(again.body).toMatchObject({ backRows: 0, totalSelf: 0, totalCompany: 0 });
    expect((await admin('POST', '/api/siAdjust/preview', body)).body.backRows).toBe(0);
    const items = await admin('GET', `/api/siAdjust/items?companyId=${company.id}&targetMonth=2026-10&size=100`);
    expect(items.body).toMatchObject({ totalElements: 15, totalSelf: 1575.03, totalCompany: 2709 });

    // July to September are exactly as confirmed
    for (const [i, m] of ['2026-07', '2026-08', '2026-09'].entries()) expect(frozen(await salaryRows(admin, company.id, m))).toEqual(before[i]);
    // reopening September would let its regeneration take the new base while its 补差 waits in October: refused, with why
    const reopen = await admin('POST', '/api/accountsSalary/unconfirm', { companyId: company.id, month: '2026-09', reason: '更正' });
    expect(reopen.status, JSON.stringify(reopen.body)).toBe(409);
    expect(reopen.body).toMatchObject({ code: 'SALARY_HAS_SI_BACK_ITEMS' });
    expect(String(reopen.body.message)).toContain('2026-10');
    expect(frozen(await salaryRows(admin, company.id, '2026-09'))).toEqual(before[2]);

    // October: the staff record's new base, plus the 补差 of the three months as their own items
    const [octA, octB] = await runMonth(admin, company.id, '2026-10');
    expect(octA).toMatchObject({ yanglaoBase: 10333.33, gjjBase: 10333.33, yanglao: 826.67, yiliao: 209.67, shiye: 51.67, gongjijin: 1240, siBackSelf: 1575.03, siBackCompany: 2709 });
    // 五险一金 of the month 2,328.01 + 补缴社保个人 1,575.03; employer 1,653.33 + 1,012.67 + 51.67 + 41.33 + 0 + 1,240 = 3,999.00 + 2,709.00
    expect(octA.fiveOne).toBe(3903.04);
    expect(octA.employerTotal).toBe(6708);
    expect(cents(octA.labourCost)).toBe(cents(octA.gross) + 670800);
    expect(cents(octA.realSalary)).toBe(cents(octA.gross) - 390304 - cents(octA.tax));
    expect(octB).toMatchObject({ yanglaoBase: 8000, siBackSelf: 0, siBackCompany: 0, fiveOne: 1803 });

    // the ITS wage declaration states the 专项扣除 the tax was computed with: 补缴 in its insurance's column
    // (养老 826.67 + 3 × 186.67, 医疗 209.67 + 3 × 46.67, 失业 51.67 + 3 × 11.67, 公积金 1,240 + 3 × 280)
    const its = await t.app.inject({ method: 'GET', url: `/api/export/iit/wage?dispatchCompany=${encodeURIComponent(AGENT)}&month=2026-10`, headers: bearer(token) });
    expect(its.statusCode, its.body).toBe(200);
    const sheet = sheetRows(its.rawPayload) as string[][];
    const col = (h: string) => sheet[0].indexOf(h);
    const mine = sheet.find((r) => r[col('*证件号码')] === a.idCard) as string[];
    expect([col('基本养老保险费'), col('基本医疗保险费'), col('失业保险费'), col('住房公积金')].map((i) => mine[i])).toEqual(['1386.68', '349.68', '86.68', '2080.00']);

    // the payslip has 补缴社保个人 as its own line and adds up
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month: '2026-10' })).status).toBe(200);
    const slip = (await admin('GET', `/api/acPayslip?month=2026-10&idCard=${a.idCard}`)).body.content[0];
    const lines = (await admin('GET', `/api/acPayslip/lines?id=${slip.id}`)).body;
    expect(lines.lines.find((l: { name: string }) => l.name === 'siBackSelf')).toMatchObject({ label: '补缴社保个人', amount: 1575.03, section: 'deduction' });
    expect(lines.net).toBe(octA.realSalary);

    // the client statement bills 补缴社保(单位) on the person's line and in the header (当月收当月)
    const terms = await admin('POST', '/api/settlementTerms', { companyId: company.id, validFrom: '2026-01', feeMode: 'PER_HEAD', feeAmount: 100, feeRate: 0, feeTaxMode: 'INCLUSIVE', siBillingLag: '0', disabledShareMode: 'NONE', unionFeeRatio: 0 });
    expect(terms.status, JSON.stringify(terms.body)).toBeLessThan(300);
    const vat = await admin('POST', '/api/vatRegime', { dispatchCompany: AGENT, validFrom: '2026-01', regime: 'GENERAL_6', rate: 0.06, surtaxRatio: 0.12 });
    expect(vat.status, JSON.stringify(vat.body)).toBeLessThan(300);
    const gen = await admin('POST', '/api/settlement/generate', { companyId: company.id, month: '2026-10' });
    expect(gen.status, JSON.stringify(gen.body)).toBe(200);
    const statement = (await admin('GET', `/api/settlement/${gen.body.statement.id}`)).body;
    expect(statement.header.sums.employerBackPay).toBe(2709);
    const line = statement.lines.find((l: { employerBackPay: number }) => l.employerBackPay !== 0);
    expect(line).toMatchObject({ employerBackPay: 2709, gross: octA.gross, employerYanglao: 1653.33 });
    // the line total passes the 补缴 through: 应发 + employer items + 补缴 + 服务费
    expect(cents(line.total)).toBe(cents(octA.gross) + 399900 + 270900 + 10000);
  });
});

describe('new bases clamped to the rate version, and computed from the prior year', () => {
  it('marks a base below the floor or above the ceiling and uses the limit', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '下限甲' }), vectorStaff(8000, { staffName: '上限乙' })]);
    const file = workbook([
      ['身份证号', '姓名', '社保基数', '公积金基数'],
      [staff[0].idCard, '下限甲', 5000, 2000],
      [staff[1].idCard, '上限乙', 50000, 50000],
    ]);
    const bases = (await upload(file)).body.bases;
    const p = await admin('POST', '/api/siAdjust/preview', { companyId: company.id, fromMonth: '2026-07', source: 'upload', bases });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const item = (who: number, ins: string) => p.body.people[who].items.find((i: { insurance: string }) => i.insurance === ins);
    expect(item(0, 'yanglao')).toEqual({ insurance: 'yanglao', old: 8000, new: 7162, clamp: 'floor', requested: 5000 });
    expect(item(0, 'gongjijin')).toEqual({ insurance: 'gongjijin', old: 8000, new: 2540, clamp: 'floor', requested: 2000 });
    expect(item(1, 'shiye')).toEqual({ insurance: 'shiye', old: 8000, new: 35811, clamp: 'ceiling', requested: 50000 });
    expect(p.body).toMatchObject({ confirmedMonths: [], targetMonth: null, backRows: 0, clamped: 12 });
    const applied = await admin('POST', '/api/siAdjust/apply', { companyId: company.id, fromMonth: '2026-07', source: 'upload', bases });
    expect(applied.body).toMatchObject({ targetMonth: null, backRows: 0, staffUpdated: 2 });
    const rows = await runMonth(admin, company.id, '2026-07');
    expect(rows.map((r) => [r.yanglaoBase, r.gjjBase])).toEqual([
      [7162, 2540],
      [35811, 35811],
    ]);
  });

  it('previews the prior year monthly average 应发 of confirmed months, half-up to the fen, clamped; people without one are listed', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [
      vectorStaff(8000, { staffName: '均值甲' }),
      vectorStaff(40000, { staffName: '均值乙' }),
      vectorStaff(9000, { staffName: '新人丙', inductionDate: '2026-03-01' }),
    ]);
    // 2025-10 8,000; 2025-11 8,000 + 1,000.01 加班费; 2025-12 8,000: (8,000 + 9,000.01 + 8,000) / 3 = 8,333.3366… -> 8,333.34
    await runMonth(admin, company.id, '2025-10');
    await runMonth(admin, company.id, '2025-11', (rows) => [{ id: rows[0].id, jiaban: 1000.01 }]);
    await runMonth(admin, company.id, '2025-12');
    const p = await admin('POST', '/api/siAdjust/preview', { companyId: company.id, fromMonth: '2026-07', source: 'average' });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const [jia, yi] = p.body.people;
    expect(jia).toMatchObject({ staffName: '均值甲', average: 8333.34, months: 3 });
    expect(jia.items.map((i: { new: number }) => i.new)).toEqual([8333.34, 8333.34, 8333.34, 8333.34, 8333.34, 8333.34]);
    expect(yi).toMatchObject({ staffName: '均值乙', average: 40000, months: 3 });
    expect(yi.items.every((i: { new: number; clamp: string }) => i.new === 35811 && i.clamp === 'ceiling')).toBe(true);
    expect(p.body.skipped).toEqual([{ idCard: staff[2].idCard, staffName: '新人丙', code: 'noHistory', detail: '2025' }]);
    const noHf = await admin('POST', '/api/siAdjust/preview', { companyId: company.id, fromMonth: '2026-07', source: 'average', housingFund: false });
    expect(noHf.body.people[0].items.map((i: { insurance: string }) => i.insurance)).toEqual(['yanglao', 'yiliao', 'shiye', 'gongshang', 'shengyu']);
  });
});

describe('refusals', () => {
  it('bad uploads are 4xx with the reason; an ordinary employee and a user without the codes get 403', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '拒绝甲' })]);
    const notExcel = await upload(Buffer.from('身份证号,社保基数\n1,2\n'));
    expect(notExcel.status).toBe(400);
    expect(notExcel.body.message).toContain('xls/xlsx');
    const noHeader = await upload(workbook([['姓名', '基本工资'], ['拒绝甲', 8000]]));
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.message).toContain('身份证号');
    const badAmount = await upload(workbook([['身份证号', '社保基数'], [staff[0].idCard, '八千']]));
    expect(badAmount.status).toBe(400);
    const partly = await upload(workbook([['身份证号', '社保基数'], [staff[0].idCard, 9000], ['123', 9000], [staff[0].idCard, 9000.123]]));
    expect(partly.status).toBe(200);
    expect(partly.body.problems.map((p: { line: number }) => p.line)).toEqual([3, 4]);
    // the lines' reasons in the request's language (codes up to the answer)
    const partlyFile = workbook([['身份证号', '社保基数', '公积金基数'], [staff[0].idCard, 9000, 1], ['123', 'x', 'y']]);
    expect((await upload(partlyFile)).body.problems).toEqual([{ line: 3, message: '社保基数不是金额，公积金基数不是金额，身份证号应为15或18位' }]);
    expect((await upload(partlyFile, token, 'en')).body.problems).toEqual([
      { line: 3, message: 'Social insurance base is not an amount, Housing fund base is not an amount, The ID card number must have 15 or 18 characters' },
    ]);
    const unreadable = await upload(workbook([['身份证号', '社保基数']]), token, 'en');
    expect(unreadable.body.message).toBe('The file of new bases cannot be read: no data rows below the header');
    expect((await admin('POST', '/api/siAdjust/preview', { companyId: company.id, fromMonth: '2026-13', source: 'average' })).status).toBe(400);
    const noBases = await admin('POST', '/api/siAdjust/apply', { companyId: company.id, fromMonth: '2026-07', source: 'upload' });
    expect(noBases.status).toBe(400);
    expect(JSON.stringify(noBases.body)).toContain('请先上传新基数文件');

    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const employee = api(t.app, await tokenFor(t, await createUser(t, { username: `emp_siadj_${Date.now()}`, roleIds: [roleId], jobId })));
    const nobodyToken = (await userWithCodes(t, ['ACCOUNTSSALARY_ALL'])).token;
    const nobody = api(t.app, nobodyToken);
    const reader = api(t.app, (await userWithCodes(t, ['SIADJUST_SELECT'])).token);
    const body = { companyId: company.id, fromMonth: '2026-07', source: 'average' };
    for (const who of [employee, nobody]) {
      expect((await who('POST', '/api/siAdjust/preview', body)).status).toBe(403);
      expect((await who('POST', '/api/siAdjust/apply', body)).status).toBe(403);
      expect((await who('GET', `/api/siAdjust/items?companyId=${company.id}`)).status).toBe(403);
      expect((await who('GET', '/api/siRecon')).status).toBe(403);
      expect((await who('POST', '/api/siRecon/1/accept', { lineIds: [1], reason: '核对无误' })).status).toBe(403);
    }
    expect((await upload(workbook([['身份证号', '社保基数'], [staff[0].idCard, 9000]]), nobodyToken)).status).toBe(403);
    expect((await reader('POST', '/api/siAdjust/preview', body)).status).toBe(200);
    expect((await reader('POST', '/api/siAdjust/apply', body)).status).toBe(403);
  });
});

describe('reasons in the request language', () => {
  const post = async (url: string, payload: unknown, language?: string) => {
    const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...(language ? { 'accept-language': language } : {}) }, payload: payload as never });
    return { status: res.statusCode, body: res.json() };
  };

  it('a person without a household type is skipped with the reason, and an adjustment of nobody is refused, each in the request language', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '无户籍' })]);
    const idCard = staff[0].idCard as string;
    // a record from before 户籍类型 was required (the form refuses one without it today)
    await t.app.ctx.db.updateTable('accounts_staff').set({ census_type: null }).where('id', '=', staff[0].id as number).execute();
    const body = { companyId: company.id, fromMonth: '2026-07', source: 'upload', bases: [{ idCard, staffName: '无户籍', base: 9000, gongjijin: 9000 }] };
    const zh = await post('/api/siAdjust/preview', body);
    expect(zh.status, JSON.stringify(zh.body)).toBe(200);
    expect(zh.body.skipped).toEqual([{ idCard, staffName: '无户籍', code: 'noRate', detail: '缺少户籍类型' }]);
    const en = await post('/api/siAdjust/preview', body, 'en');
    expect(en.body.skipped).toEqual([{ idCard, staffName: '无户籍', code: 'noRate', detail: 'The household type is missing' }]);

    const refusedZh = await post('/api/siAdjust/apply', body);
    expect(refusedZh.status).toBe(400);
    expect(refusedZh.body.message).toBe('没有可调整基数的员工（1人无法调整）');
    const refusedEn = await post('/api/siAdjust/apply', body, 'en');
    expect(refusedEn.status).toBe(400);
    expect(refusedEn.body.message).toBe('No staff member can have the base adjusted (1 cannot be adjusted)');
  });
});
