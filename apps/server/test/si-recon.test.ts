import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, multipart, workbook } from './dispatch-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';
import { type Api, api, companyWithStaff, nextIdCard, runMonth, salaryRows, vectorStaff } from './payroll-fixtures.ts';

// 社保平账 (issue 24 item 4): the bureau's 应缴明细 of a confirmed month against our figures; a planted difference,
// a person only the bureau has, and the accepted difference as 补差 of the next open month. Base 8,000 (seeded
// Beijing rates): personal 养老 640.00, 医疗 163.00, 失业 40.00, 公积金 960; employer 1,280.00, 784.00, 40.00, 工伤 32.00, 公积金 960.

let t: TestApp;
let admin: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function importFile(file: Buffer, fields: Record<string, string>, as = token, language?: string) {
  const m = multipart(file, '应缴明细.xlsx', fields);
  const languageHeader = language ? { 'accept-language': language } : {};
  const res = await t.app.inject({ method: 'POST', url: '/api/import/siRecon', headers: { ...m.headers, ...bearer(as), ...languageHeader }, payload: m.payload });
  return { status: res.statusCode, body: res.json() };
}

/** The bureau's lines of one person at base 8,000, columns in the bureau's own order. */
const personLines = (name: string, idCard: string, over: Record<string, [number, number]> = {}) =>
  (
    [
      ['基本养老保险', 640, 1280],
      ['职工基本医疗保险', 163, 784],
      ['失业保险', 40, 40],
      ['工伤保险', 0, 32],
      ['住房公积金', 960, 960],
    ] as [string, number, number][]
  ).map(([ins, self, company]) => [idCard, name, '202608', ins, 8000, over[ins]?.[1] ?? company, over[ins]?.[0] ?? self]);

const HEADER = ['公民身份号码', '姓名', '费款所属期', '险种', '缴费基数', '单位应缴金额', '个人应缴金额'];

describe('社保平账', () => {
  it('lists one planted difference and a bureau-only person; the accepted difference is a 补差 of the next open month', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '平账甲' }), vectorStaff(8000, { staffName: '平账乙' })]);
    const [a, b] = staff;
    const month = '2026-08';
    const open = await importFile(workbook([HEADER, ...personLines('平账甲', a.idCard)]), { companyId: String(company.id), month });
    expect(open.status).toBe(409);
    expect(open.body.message).toContain('尚未确认');
    await runMonth(admin, company.id, month);

    const stranger = nextIdCard();
    const file = workbook([
      ['北京市社会保险费应缴明细（2026年08月）'],
      HEADER,
      ...personLines('平账甲', a.idCard),
      // planted: the bureau bills 乙's employer pension 1,280.50 instead of 1,280.00
      ...personLines('平账乙', b.idCard, { 基本养老保险: [640, 1280.5] }),
      [stranger, '外来丙', '202608', '基本养老保险', 8000, 1280, 640],
    ]);
    const rec = await importFile(file, { companyId: String(company.id), month });
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    expect(rec.body).toMatchObject({ month, fileRows: 11, matched: 9, diff: 1, bureauOnly: 1, oursOnly: 0, accepted: 0 });

    const page1 = await admin('GET', `/api/siRecon/${rec.body.id}/lines?size=1&page=0`);
    expect(page1.body.totalElements).toBe(2);
    expect(page1.body.content).toHaveLength(1);
    const diffs = (await admin('GET', `/api/siRecon/${rec.body.id}/lines?kind=diff`)).body.content;
    expect(diffs).toEqual([
      expect.objectContaining({ idCard: b.idCard, staffName: '平账乙', insurance: 'yanglao', kind: 'diff', bureauSelf: 640, bureauCompany: 1280.5, ourSelf: 640, ourCompany: 1280, diffSelf: 0, diffCompany: 0.5, state: 'open' }),
    ]);
    const only = (await admin('GET', `/api/siRecon/${rec.body.id}/lines?kind=bureauOnly`)).body.content[0];
    expect(only).toMatchObject({ idCard: stranger, staffName: '外来丙', ourSelf: null, ourCompany: null, diffSelf: 640, diffCompany: 1280 });

    // a person who is not on the company's staff cannot be paid a 补差; a reason is required
    const refused = await admin('POST', `/api/siRecon/${rec.body.id}/accept`, { lineIds: [only.id], reason: '经办机构多报' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('外来丙');
    expect((await admin('POST', `/api/siRecon/${rec.body.id}/accept`, { lineIds: [diffs[0].id], reason: '' })).status).toBe(400);

    const accepted = await admin('POST', `/api/siRecon/${rec.body.id}/accept`, { lineIds: [diffs[0].id], reason: '经办机构按1280.50核定' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual({ accepted: 1, targetMonth: '2026-09', totalSelf: 0, totalCompany: 0.5 });
    const twice = await admin('POST', `/api/siRecon/${rec.body.id}/accept`, { lineIds: [diffs[0].id], reason: '再次确认' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('1条已确认');

    // September: 乙 carries 补缴社保单位 0.50; August stays as confirmed
    const [sepA, sepB] = await runMonth(admin, company.id, '2026-09');
    expect(sepA).toMatchObject({ siBackSelf: 0, siBackCompany: 0, employerTotal: 3096 });
    expect(sepB).toMatchObject({ siBackSelf: 0, siBackCompany: 0.5, employerTotal: 3096.5, fiveOne: 1803 });
    expect((await salaryRows(admin, company.id, month)).map((r) => [r.employerTotal, r.siBackCompany])).toEqual([
      [3096, 0],
      [3096, 0],
    ]);
    const items = (await admin('GET', `/api/siAdjust/items?companyId=${company.id}`)).body;
    expect(items.content).toEqual([expect.objectContaining({ idCard: b.idCard, insurance: 'yanglao', referMonth: month, targetMonth: '2026-09', self: 0, company: 0.5, source: 'recon', reason: '经办机构按1280.50核定' })]);

    // a base adjustment to the same bases owes nothing and does not undo the bureau's accepted correction
    const same = await admin('POST', '/api/siAdjust/preview', { companyId: company.id, fromMonth: month, source: 'upload', bases: [{ idCard: b.idCard, base: 8000, gongjijin: 8000 }] });
    expect(same.body).toMatchObject({ confirmedMonths: ['2026-08', '2026-09'], backRows: 0, totalCompany: 0 });

    // the same file again: the accepted difference is part of our figures now
    const again = await importFile(file, { companyId: String(company.id), month });
    expect(again.body).toMatchObject({ matched: 10, diff: 0, bureauOnly: 1 });
    const list = await admin('GET', `/api/siRecon?companyId=${company.id}&month=${month}`);
    expect(list.body.totalElements).toBe(2);
    expect(list.body.content[1]).toMatchObject({ id: rec.body.id, accepted: 1 });
  });

  it('refuses unreadable files by content, naming the lines; 403 for an ordinary employee and a user without the codes', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '坏文件甲' })]);
    const month = '2026-08';
    await runMonth(admin, company.id, month);
    const fields = { companyId: String(company.id), month };
    const renamed = await importFile(Buffer.from('公民身份号码,险种\n'), fields);
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toContain('xls/xlsx');
    const noHeader = await importFile(workbook([['姓名', '金额'], ['坏文件甲', 1]]), fields);
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.message).toContain('险种');
    const badFile = workbook([HEADER, [staff[0].idCard, '坏文件甲', '202608', '长护险', 8000, 10, 10], [staff[0].idCard, '坏文件甲', '202607', '失业保险', 8000, 'x', 40]]);
    const badLines = await importFile(badFile, fields);
    expect(badLines.status).toBe(400);
    expect(badLines.body.message).toBe('平账文件无法读取：第2行：险种“长护险”无法识别；第3行：单位应缴不是金额，所属期202607不是2026-08');
    // the lines' reasons are codes: in English only the file's own value (长护险) stays Chinese
    const english = await importFile(badFile, fields, token, 'en');
    expect(english.body.message).toBe(
      'The bureau statement cannot be read: Row 2: the insurance "长护险" is not recognised; Row 3: the employer contribution is not an amount, the period 202607 is not 2026-08',
    );
    // the columns the file must have are named as its header must read
    expect((await importFile(workbook([['姓名', '金额'], ['坏文件甲', 1]]), fields, token, 'en')).body.message).toBe(
      'The bureau statement cannot be read: Required columns are missing: 身份证号、险种、个人应缴、单位应缴',
    );
    expect(badLines.body.message).toContain('第2行');
    expect(badLines.body.message).toContain('长护险');
    expect(badLines.body.message).toContain('第3行');
    expect(badLines.body.message).toContain('所属期202607不是2026-08');
    expect((await importFile(workbook([HEADER, ...personLines('坏文件甲', staff[0].idCard)]), { companyId: String(company.id) })).status).toBe(400);

    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const employeeToken = await tokenFor(t, await createUser(t, { username: `emp_recon_${Date.now()}`, roleIds: [roleId], jobId }));
    const nobodyToken = (await userWithCodes(t, ['ACCOUNTSSALARY_ALL', 'SETTLEMENT_ALL'])).token;
    for (const who of [employeeToken, nobodyToken]) {
      expect((await importFile(workbook([HEADER, ...personLines('坏文件甲', staff[0].idCard)]), fields, who)).status).toBe(403);
      expect((await api(t.app, who)('GET', '/api/siRecon/1/lines')).status).toBe(403);
    }
    const importer = await userWithCodes(t, ['SIADJUST_IMPORT']);
    const ok = await importFile(workbook([HEADER, ...personLines('坏文件甲', staff[0].idCard)]), fields, importer.token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ matched: 5, diff: 0 });
    expect((await api(t.app, importer.token)('POST', `/api/siRecon/${ok.body.id}/accept`, { lineIds: [1], reason: '核对无误' })).status).toBe(403);
  });
});
