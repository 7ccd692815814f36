import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken, idCard, multipart, sheetRows, workbook } from './dispatch-fixtures.ts';
import { createUser, idOf, tokenFor } from './system-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Payslips: generation from a confirmed month (payroll-rules.md §5.3 mapping), all-or-nothing import, the two
// exports, and the ordinary employee who must never see anyone else's payslip on any endpoint.

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

const HEADER = ['月份', '序号', '姓名', '身份证号', '银行', '基础工资', '本期应发', '养老(8%)', '应纳税额', '实发', '备注'];

async function importSheet(rows: unknown[][], type: 'xlsx' | 'xls' = 'xlsx') {
  const mp = multipart(workbook(rows, type), `payslips.${type}`);
  const res = await t.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, authorization: `Bearer ${token}` }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}
const countSlips = async () => Number((await t.app.ctx.db.selectFrom('ac_payslip').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('payslip generation', () => {
  it('maps a confirmed month to payslips, replaces only generated ones, refuses unconfirmed months', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '工资条甲', salaryBank: '中国银行', bankcardNumber: '6216600000000001' })]);
    const month = '2026-01';
    const refused = await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month });
    expect(refused.status).toBe(409);
    await admin('POST', '/api/accountsSalary/generator', { companyId: company.id, month });
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(409);
    await runMonth(admin, company.id, month, (r) => [{ id: r[0].id, jiaban: 500, koukuan: 100 }]);
    const gen = await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month });
    expect(gen).toMatchObject({ status: 200, body: { message: '生成成功，共1条' } });
    const list = await admin('GET', `/api/acPayslip?month=${month}&idCard=${staff[0].idCard}`);
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({
      month,
      xuhao: 1,
      // U14: 工号 filled, the person's number in 员工管理
      gonghao: String(staff[0].id),
      name: '工资条甲',
      idCard: staff[0].idCard,
      bank: '中国银行',
      bankNumber: '6216600000000001',
      mingcheng: company.companyName,
      // every amount of 应发 on its own line (P7): 8,000.00 + 500.00 − 100.00 = 8,400.00
      jichu: 8000,
      jiaban: 500,
      koukuan: 100,
      benqi: 8400,
      yanglao: 640,
      yiliao: 163,
      shiye: 40,
      gongjijin: 960,
      shebaogeren: 843,
      shebaogongjijin: 1803,
      yingshui: 1597,
      yingna: 47.91,
      shuihou: 6549.09,
      shifa: 6549.09,
      beizhu: null,
    });
    // an imported payslip of the same person and month replaces the generated one (X6) and survives regeneration
    const imp = await importSheet([HEADER, [month, 1, '工资条甲', staff[0].idCard, '', 100, 100, 0, 0, 100, '补发']]);
    expect(imp).toMatchObject({ status: 200, body: { inserted: 0, updated: 1, replaced: 1 } });
    expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
    const after = await admin('GET', `/api/acPayslip?month=${month}&idCard=${staff[0].idCard}`);
    expect(after.body.totalElements).toBe(1);
    expect(after.body.content[0]).toMatchObject({ id: list.body.content[0].id, source: '导入', jichu: 100, beizhu: '补发' });
  });
});

describe('payslip import', () => {
  it('imports xlsx and xls; re-importing the same month and ID card updates', async () => {
    const a = idCard('1991-02-03', 21);
    const b = idCard('1992-02-03', 22);
    const r1 = await importSheet([HEADER, ['2026-02', 1, '导入甲', a, '工行', 5000, 5000.5, 400, 0, 4600.5, ''], ['2026-02', 2, '导入乙', b, '', '1,200.00', 1200, 0, 0, 1200, '']]);
    expect(r1).toMatchObject({ status: 200, body: { total: 2, inserted: 2, updated: 0, failed: 0 } });
    const r2 = await importSheet([HEADER, ['2026-02', 1, '导入甲', a, '工行', 5100, 5100, 400, 0, 4700, '更正']], 'xls');
    expect(r2).toMatchObject({ status: 200, body: { total: 1, inserted: 0, updated: 1 } });
    const list = await admin('GET', `/api/acPayslip?idCard=${a}`);
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({ jichu: 5100, shifa: 4700, beizhu: '更正' });
    expect((await admin('GET', `/api/acPayslip?idCard=${b}`)).body.content[0].jichu).toBe(1200);
  });

  it('unknown columns fail the whole file; text in a money cell fails its row; nothing is written', async () => {
    const before = await countSlips();
    const unknown = await importSheet([[...HEADER, '奖金X'], ['2026-03', 1, '某人', idCard('1993-01-01', 1), '', 1, 1, 0, 0, 1, '', 5]]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('无法识别的列：奖金X');
    const text = await importSheet([
      HEADER,
      ['2026-03', 1, '好行', idCard('1993-01-01', 3), '', 1000, 1000, 0, 0, 1000, ''],
      ['2026-03', 2, '坏行', idCard('1993-01-01', 5), '', '一千元', 1000, 0, 0, 1000, ''],
    ]);
    expect(text.status).toBe(400);
    expect(text.body.message).toContain('第3行“基础工资”');
    expect(text.body.message).toContain('未导入任何数据');
    const missing = await importSheet([['姓名', '身份证号'], ['某人', idCard('1993-01-01', 7)]]);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('缺少必填列：月份');
    const notExcel = await t.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { authorization: `Bearer ${token}`, ...multipart(Buffer.from('a,b\n1,2'), 'x.csv').headers }, payload: multipart(Buffer.from('a,b\n1,2'), 'x.csv').payload });
    expect(notExcel.statusCode).toBe(400);
    expect(await countSlips()).toBe(before);
  });
});

describe('ordinary employee', () => {
  it('sees only their own payslips on every endpoint and can change nothing', async () => {
    const own = idCard('1990-07-01', 31);
    const other = idCard('1990-07-01', 33);
    expect(
      (
        await importSheet([
          HEADER,
          ['2026-04', 1, '本人', own, '', 3000, 3000, 0, 0, 3000, ''],
          ['2026-05', 1, '本人', own, '', 3100, 3100, 0, 0, 3100, ''],
          ['2026-04', 2, '别人', other, '', 9000, 9000, 0, 0, 9000, ''],
        ])
      ).status,
    ).toBe(200);
    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const userId = await createUser(t, { username: own, roleIds: [roleId], jobId });
    const myToken = await tokenFor(t, userId);
    const me = api(t.app, myToken);
    const otherSlip = (await admin('GET', `/api/acPayslip?idCard=${other}`)).body.content[0];
    const ownSlip = (await admin('GET', `/api/acPayslip?idCard=${own}&month=2026-04`)).body.content[0];

    for (const q of ['', `?idCard=${other}`, `?name=别人`, '?month=2026-04', '?size=1000&sort=idCard,desc', `?isFilter=0&idCard=${other}`]) {
      const r = await me('GET', `/api/acPayslip${q}`);
      expect(r.status).toBe(200);
      expect(r.body.content.every((p: any) => p.idCard === own), q).toBe(true);
    }
    expect((await me('GET', '/api/acPayslip')).body.totalElements).toBe(2);
    expect((await me('GET', `/api/acPayslip/${otherSlip.id}`)).status).toBe(404);
    expect((await me('GET', `/api/acPayslip/${ownSlip.id}`)).status).toBe(200);

    const exports: [string, number][] = [
      ['/api/export/acPayslipAll', 2],
      [`/api/export/acPayslipAll?idCard=${other}`, 0],
      [`/api/export/acPayslipAll?name=别人&month=2026-04`, 0],
      [`/api/export/acPayslipOne?isFilter=1&idCard=${other}`, 2],
      ['/api/export/acPayslipOne', 2],
    ];
    for (const [url, count] of exports) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${myToken}` } });
      expect(res.statusCode, url).toBe(200);
      const rows = sheetRows(res.rawPayload);
      const col = (rows[0] as string[]).indexOf('身份证号');
      expect(rows.length - 1, url).toBe(count);
      expect(rows.slice(1).every((r) => r[col] === own), url).toBe(true);
    }

    const writes = [
      await me('POST', '/api/acPayslip', { month: '2026-06', name: '本人', idCard: own }),
      await me('PUT', '/api/acPayslip', { id: ownSlip.id, shifa: 99999 }),
      await me('DELETE', `/api/acPayslip/${ownSlip.id}`),
      await me('DELETE', '/api/acPayslip', [otherSlip.id]),
      await me('POST', '/api/acPayslip/generate', { companyId: 1, month: '2026-04' }),
    ];
    expect(writes.map((w) => w.status)).toEqual([403, 403, 403, 403, 403]);
    const mp = multipart(workbook([HEADER, ['2026-06', 1, '本人', own, '', 1, 1, 0, 0, 1, '']]));
    const imp = await t.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, authorization: `Bearer ${myToken}` }, payload: mp.payload });
    expect(imp.statusCode).toBe(403);
    expect((await admin('GET', `/api/acPayslip/${ownSlip.id}`)).body.shifa).toBe(3000);

    // the admin's list follows the default order: month desc, then idCard asc
    const all = (await admin('GET', '/api/acPayslip?size=1000')).body.content as any[];
    const keys = all.map((p) => `${p.month}|${p.idCard}`);
    const sorted = [...keys].sort((x, y) => (x.slice(0, 7) === y.slice(0, 7) ? (x < y ? -1 : x > y ? 1 : 0) : x < y ? 1 : -1));
    expect(keys).toEqual(sorted);
  });

  it('the one-person export holds only the columns with a value (U14)', async () => {
    const person = idCard('1991-03-02', 35);
    const header = ['月份', '工号', '姓名', '身份证号', '银行', '班主任津贴', '基础工资', '本期应发', '养老(8%)', '应纳税额', '实发'];
    expect((await importSheet([header, ['2026-07', 'G17', '列', person, '', null, 5000, 5000, 400, 0, 4600], ['2026-08', null, '列', person, '', null, 5100, 5100, 408, 0, 4692]])).status).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/api/export/acPayslipOne?idCard=${person}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const rows = sheetRows(res.rawPayload);
    // 工号 has a value in one row, 应纳税额 is 0 (a value); 班主任津贴, 银行 and the other ~50 items are empty everywhere
    expect(rows[0]).toEqual(['月份', '工号', '姓名', '身份证号', '基础工资', '本期应发', '养老(8%)', '应纳税额', '实发']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[4]])).toEqual([
      ['2026-08', null, 5100],
      ['2026-07', 'G17', 5000],
    ]);
    // the clerk's export of everyone keeps every column (it is the import template's layout)
    const all = await t.app.inject({ method: 'GET', url: `/api/export/acPayslipAll?idCard=${person}`, headers: { authorization: `Bearer ${token}` } });
    expect((sheetRows(all.rawPayload)[0] as string[]).length).toBeGreaterThan(60);
  });

  it('the one-person export needs an ID card for other users', async () => {
    expect((await admin('GET', '/api/export/acPayslipOne')).status).toBe(400);
  });
});
