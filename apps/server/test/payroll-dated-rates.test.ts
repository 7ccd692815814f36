import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Finding P4: ratios came from the staff row, so a new rate dictionary version could not change them. The
// version in force in the salary month decides, unless the staff record keeps its own ratios (使用个人比例),
// which the salary row shows. Worked by hand for a base of 10,000: unemployment 0.5 % = 50.00 until May 2026,
// 0.3 % = 30.00 from the version bencheng@2026-06 on; a worker who keeps his own 0.5 % pays 50.00 throughout.

let t: TestApp;
let call: Api;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  call = api(t.app, token);
  // A new version of the 本城 rates from June 2026: the seeded entries with unemployment at 0.3 %.
  const db = t.app.ctx.db;
  const now = new Date().toISOString();
  const base = await db.selectFrom('sys_dict').select('id').where('name', '=', 'bencheng').executeTakeFirstOrThrow();
  const entries = await db.selectFrom('sys_dict_detail').select(['label', 'value', 'sort']).where('dict_id', '=', base.id).execute();
  await db.insertInto('sys_dict').values({ name: 'bencheng@2026-06', remark: '本城费率 2026-06', create_time: now }).execute();
  const version = await db.selectFrom('sys_dict').select('id').where('name', '=', 'bencheng@2026-06').executeTakeFirstOrThrow();
  await db
    .insertInto('sys_dict_detail')
    .values(
      entries.map((e) => ({
        dict_id: version.id,
        label: e.label,
        value: e.label === 'shiyeRatioSelf' ? '0.003' : e.label === 'effectiveMonth' ? '2026-06' : e.value,
        sort: e.sort,
        create_time: now,
      })),
    )
    .execute();
});
afterAll(async () => {
  await t?.close();
});

describe('P4: the rate version in force decides the ratios', () => {
  it('unemployment 0.5 % in May, 0.3 % from the June version; a worker keeping his own ratio pays 0.5 %', async () => {
    const { company } = await companyWithStaff(t.app, token, [
      vectorStaff(10000, { staffName: '按字典', inductionDate: '2026-01-05' }),
      vectorStaff(10000, { staffName: '个人比例', inductionDate: '2026-01-05', ratioOverride: true }),
    ]);
    const shiye: Record<string, [string, number, boolean][]> = {};
    for (const month of ['2026-05', '2026-06']) {
      const rows = await runMonth(call, company.id, month);
      shiye[month] = rows.map((r) => [r.staffName, r.shiye, r.ratioOverride]);
    }
    expect(shiye).toEqual({
      '2026-05': [
        ['按字典', 50, false],
        ['个人比例', 50, true],
      ],
      '2026-06': [
        ['按字典', 30, false],
        ['个人比例', 50, true],
      ],
    });
  });

  it('the seeded 2024-07 version applies to June 2025: its base floor 6,821 clamps a 5,000 base', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(5000, { inductionDate: '2025-01-06', gjjBase: 5000 })]);
    const [june] = await runMonth(call, company.id, '2025-06');
    // pension 6,821 x 8 % = 545.68; medical 6,821 x 2 % + 3 = 139.42; unemployment 6,821 x 0.5 % = 34.11 (34.105 half-up)
    expect(june).toMatchObject({ yanglao: 545.68, yiliao: 139.42, shiye: 34.11, gongjijin: 600 });
    const [july] = await runMonth(call, company.id, '2025-07');
    // from 2025-07 the floor is 7,162: 572.96 / 146.24 / 35.81
    expect(july).toMatchObject({ yanglao: 572.96, yiliao: 146.24, shiye: 35.81 });
  });

  it('a staff ratio typed differently from the dictionary does not apply unless the record says so', async () => {
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(10000, { inductionDate: '2026-01-05', shiyeRatioSelf: 0.01 })]);
    const [row] = await runMonth(call, company.id, '2026-04');
    expect(row.shiye).toBe(50);
  });
});

describe('employer cost (issue 10 item 9)', () => {
  it('each row carries the employer items; the month summary adds them up per client company', async () => {
    // Bases 8,000 at the seeded 2025-07 rates: pension 16 % = 1,280.00, medical 9.8 % = 784.00, unemployment
    // 0.5 % = 40.00, work injury 0.4 % (北京华派) = 32.00, maternity 0 %, housing fund 12 % = 960: 3,096.00;
    // labour cost = 应发 8,000.00 + 3,096.00 = 11,096.00. A worker on 9,000 with 500 overtime and bases 9,000:
    // 1,440.00 + 882.00 + 45.00 + 36.00 + 1,080 = 3,483.00; labour cost 9,500.00 + 3,483.00 = 12,983.00.
    const { company } = await companyWithStaff(t.app, token, [
      vectorStaff(8000, { staffName: '甲', inductionDate: '2025-01-06' }),
      vectorStaff(9000, { staffName: '乙', inductionDate: '2025-01-06' }),
    ]);
    const rows = await runMonth(call, company.id, '2025-09', (r) => [{ id: r[1].id, jiaban: 500, koukuan: 0 }]);
    expect(rows[0]).toMatchObject({
      employerYanglao: 1280,
      employerYiliao: 784,
      employerShiye: 40,
      employerGongshang: 32,
      employerShengyu: 0,
      employerGongjijin: 960,
      employerTotal: 3096,
      labourCost: 11096,
    });
    expect(rows[1]).toMatchObject({ gross: 9500, employerTotal: 3483, labourCost: 12983 });
    const summary = await call('GET', `/api/accountsSalary/summary?companyId=${company.id}&month=2025-09`);
    expect(summary.body).toMatchObject({ rows: 2, confirmed: true, gross: 17500, employerTotal: 6579, labourCost: 24079 });
    const cost = await call('GET', '/api/accountsSalary/costSummary?month=2025-09');
    expect(cost.status).toBe(200);
    expect(cost.body.companies.find((c: { companyId: number }) => c.companyId === company.id)).toEqual({
      companyId: company.id,
      companyName: company.companyName,
      rows: 2,
      gross: 17500,
      employerTotal: 6579,
      labourCost: 24079,
      confirmed: true,
    });
    expect(cost.body.total.labourCost).toBeGreaterThanOrEqual(24079);
    expect((await call('GET', '/api/accountsSalary/costSummary?month=2099-01')).status).toBe(400);
    expect((await call('GET', '/api/accountsSalary/costSummary')).body.message).toBe('请选择月份');
  });
});
