import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { bearer, type TestApp } from './helpers.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff, withAdminApp } from './payroll-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';

/**
 * 增减员 (issue 24 item 3) on the test database: a planted month with one hire, one leaver and one base change
 * (plus a hire without housing fund and a colleague who changes nothing), the lists for the bureau (社保) and the fund
 * centre (公积金), the Beijing template's column order, a GBK csv written byte for byte and an xls read back cell by
 * cell, and the refusals: permissions, bad parameters, templates whose layout is wrong, a name GBK cannot hold.
 */

const BEFORE = '2026-10';
const MONTH = '2026-11';
let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  t = s.t;
  call = s.call;
  token = s.token;
});

/** A hire of the month: hired and insured on the 3rd. */
const hire = (base: number, over: Record<string, unknown>) =>
  vectorStaff(base, { inductionDate: `${MONTH}-03`, dispatchDate: `${MONTH}-03`, insuredTime: `${MONTH}-03`, contractStart: `${MONTH}-03`, contractEnd: '2028-11-02', ...over });

async function templateId(name: string): Promise<number> {
  const r = await call('GET', '/api/siChangeTemplate?size=50');
  expect(r.status).toBe(200);
  const found = r.body.content.find((x: { templateName: string }) => x.templateName === name);
  expect(found).toBeTruthy();
  return found.id;
}

async function exportFile(q: Record<string, unknown>, as = token) {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
  return t.app.inject({ method: 'GET', url: `/api/export/siChanges?${qs}`, headers: bearer(as) });
}

/** The planted company: months BEFORE (confirmed) and MONTH (generated) with the changes between them. */
async function plantedMonth() {
  const { company, staff } = await companyWithStaff(t.app, token, [
    vectorStaff(8000, { staffName: '张三' }),
    vectorStaff(7000, { staffName: '李四' }),
    vectorStaff(6000, { staffName: '赵六' }),
  ]);
  await runMonth(call, company.id, BEFORE);
  // the changes of MONTH: 张三's bases rise, 李四 leaves on the 15th, 王五 is hired (五险一金), 钱七 too (五险, no fund)
  const raise = { gjjBase: 9000.5, yanglaoBase: 9000.5, yiliaoBase: 9000.5, yiliaoBaseSelf: 9000.5, shiyeBase: 9000.5, gongshangBase: 9000.5, shengyuBase: 9000.5 };
  expect((await call('PUT', '/api/accountsStaff', { ...staff[0], ...raise })).status).toBe(204);
  expect((await call('PUT', '/api/accountsStaff', { ...staff[1], jobState: '离职', leaveDate: `${MONTH}-15` })).status).toBe(204);
  // and 孙八 is hired on the 3rd and gone on the 20th: on both lists
  const hired = await companyWithStaffAdd(company.id, [
    hire(7500, { staffName: '王五', censusType: 'wainong' }),
    hire(5000, { staffName: '钱七', insureType: '五险' }),
    hire(5500, { staffName: '孙八', jobState: '离职', leaveDate: `${MONTH}-20` }),
  ]);
  expect([200, 204]).toContain((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: MONTH })).status);
  return { company, staff: [...staff, ...hired] };
}

async function companyWithStaffAdd(companyId: number, people: Record<string, unknown>[]) {
  const out = [];
  for (const p of people) {
    const r = await call('POST', '/api/accountsStaff', { ...(await staffDefaults()), companyId, ...p });
    expect(r.status).toBe(201);
    out.push(r.body);
  }
  return out;
}
const staffDefaults = async () => (await import('./dispatch-fixtures.ts')).staffBody(0);

const names = (rows: { staffName: string }[]) => rows.map((r) => r.staffName);

describe('增减员 lists', () => {
  it('derives 增员, 减员 and 基数变更 of a planted month for the bureau and the fund centre', async () => {
    const { company } = await plantedMonth();
    const si = await templateId('北京 社保 增减员');
    const hf = await templateId('北京 公积金 汇缴变更');
    const q = (templateId: number, kind: string) => call('GET', `/api/siChanges?companyId=${company.id}&month=${MONTH}&templateId=${templateId}&kind=${kind}`);

    const add = await q(si, 'add');
    expect(add.status).toBe(200);
    expect(add.body.counts).toEqual({ add: 3, remove: 2, base: 1 });
    expect(add.body.target).toBe('si');
    expect(add.body.content).toMatchObject([
      { staffName: '王五', startMonth: MONTH, reason: '新参保', oldBase: null, newBase: 7500 },
      { staffName: '钱七', startMonth: MONTH, reason: '新参保', oldBase: null, newBase: 5000 },
      { staffName: '孙八', startMonth: MONTH, reason: '新参保', oldBase: null, newBase: 5500 },
    ]);
    const remove = await q(si, 'remove');
    expect(remove.body.content).toMatchObject([
      { staffName: '李四', reason: '离职', startMonth: MONTH, oldBase: 7000, newBase: null },
      { staffName: '孙八', reason: '离职', startMonth: MONTH, oldBase: null, newBase: null },
    ]);
    const base = await q(si, 'base');
    expect(base.body.content).toMatchObject([{ staffName: '张三', reason: '调整基数', oldBase: 8000, newBase: 9000.5 }]);
    expect(base.body.totalElements).toBe(1);

    // the fund centre: 钱七 has no housing fund
    const hfAdd = await q(hf, 'add');
    expect(hfAdd.body.target).toBe('hf');
    expect(hfAdd.body.counts).toEqual({ add: 2, remove: 2, base: 1 });
    expect(names(hfAdd.body.content)).toEqual(['王五', '孙八']);

    // paging
    const paged = await call('GET', `/api/siChanges?companyId=${company.id}&month=${MONTH}&templateId=${si}&kind=add&page=1&size=1`);
    expect(names(paged.body.content)).toEqual(['钱七']);
    expect(paged.body.totalElements).toBe(3);

    // the month before the changes: nobody is new (their hire dates lie earlier), nothing differs from September
    const before = await call('GET', `/api/siChanges?companyId=${company.id}&month=${BEFORE}&templateId=${si}`);
    expect(before.body.counts).toEqual({ add: 0, remove: 0, base: 0 });

    // Beijing 增员 in the reference's column order, read back cell by cell; the same request gives the same bytes
    const file = await exportFile({ companyId: company.id, month: MONTH, templateId: si, kind: 'add' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/vnd.ms-excel');
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain(`北京社保增员_${company.companyName}_${MONTH}.xls`);
    const wb = XLSX.read(file.rawPayload, { type: 'buffer' });
    expect(wb.SheetNames).toEqual(['增员']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets['增员'], { header: 1, raw: true });
    expect(rows[0]).toEqual(['姓名', '公民身份号码', '缴费人员类别', '月均工资收入', '参加险种', '医疗参保人员类别', '增员原因']);
    const wang = rows.find((r) => r[0] === '王五') as unknown[];
    expect(wang.slice(2)).toEqual(['外埠农村', 7500, '养老,失业,工伤,医疗,生育', '在职', '新参保']);
    expect(rows).toHaveLength(4);
    const again = await exportFile({ companyId: company.id, month: MONTH, templateId: si, kind: 'add' });
    expect(again.rawPayload.equals(file.rawPayload)).toBe(true);

    // 基数变更 with the base to the fen in the xls
    const baseFile = await exportFile({ companyId: company.id, month: MONTH, templateId: si, kind: 'base' });
    const baseRows = XLSX.utils.sheet_to_json<unknown[]>(XLSX.read(baseFile.rawPayload, { type: 'buffer' }).Sheets['基数变更'], { header: 1, raw: true });
    expect(baseRows[1].slice(1)).toEqual(['张三', expect.stringMatching(/^\d{17}[\dX]$/), 8000, 9000.5, '202611']);
  });

  it('lists a worker still employed but no longer covered as 减员 (停保) for that target only', async () => {
    const { company, staff } = await companyWithStaff(t.app, token, [vectorStaff(6000, { staffName: '周九' }), vectorStaff(6200, { staffName: '吴十' })]);
    await runMonth(call, company.id, BEFORE);
    // 周九's insurance is stopped altogether; 吴十 keeps social insurance but leaves the housing fund
    expect((await call('PUT', '/api/accountsStaff', { ...staff[0], insuredState: '已停保' })).status).toBe(204);
    expect((await call('PUT', '/api/accountsStaff', { ...staff[1], insureType: '五险' })).status).toBe(204);
    const q = async (template: string) => (await call('GET', `/api/siChanges?companyId=${company.id}&month=${MONTH}&templateId=${await templateId(template)}&kind=remove`)).body;
    const si = await q('深圳 社保 增减员');
    expect(si.counts).toEqual({ add: 0, remove: 1, base: 0 });
    expect(si.content).toMatchObject([{ staffName: '周九', reason: '停保', oldBase: 6000 }]);
    const hf = await q('深圳 公积金 汇缴变更');
    expect(hf.counts).toEqual({ add: 0, remove: 2, base: 0 });
    expect(hf.content.map((r: { staffName: string; reason: string }) => [r.staffName, r.reason])).toEqual([
      ['周九', '停保'],
      ['吴十', '停保'],
    ]);
  });

  it('writes a GBK csv template byte for byte and refuses a name GBK cannot hold', async () => {
    const { company, staff } = await plantedMonth();
    const created = await call('POST', '/api/siChangeTemplate', {
      templateName: `测试 GBK csv ${Date.now()}`,
      region: '测试',
      target: 'si',
      fileType: 'csv',
      encoding: 'GBK',
      titleRow: true,
      headerLines: JSON.stringify(['单位：{companyName},所属期：{month},人数：{count}']),
      removeColumns: JSON.stringify([
        { title: '序号', field: 'seq' },
        { title: '姓名', field: 'name' },
        { title: '证件号码', field: 'idNumber' },
        { title: '减员原因', field: 'reason', map: { 离职: '01' } },
        { title: '停保年月', field: 'startMonth', format: 'yyyyMM' },
        { title: '原基数', field: 'oldBase', format: 'integer' },
        { title: '备注', value: '派遣, "到期"' },
      ]),
    });
    expect(created.status).toBe(201);
    const file = await exportFile({ companyId: company.id, month: MONTH, templateId: created.body.id, kind: 'remove' });
    expect(file.statusCode).toBe(200);
    const [li, sun] = [staff[1], staff[5]];
    const note = '"派遣, ""到期"""';
    const expected = `单位：${company.companyName},所属期：${MONTH},人数：2\r\n序号,姓名,证件号码,减员原因,停保年月,原基数,备注\r\n1,李四,${li.idCard},01,202611,7000,${note}\r\n2,孙八,${sun.idCard},01,202611,,${note}\r\n`;
    expect(file.rawPayload.equals(iconv.encode(expected, 'gbk'))).toBe(true);
    // 李 in GBK is C0 EE: the file is not UTF-8, and it reads back to the same text
    expect(file.rawPayload.includes(Buffer.from([0xc0, 0xee]))).toBe(true);
    expect(iconv.decode(file.rawPayload, 'gbk')).toBe(expected);

    // the template has no 增员 columns
    const noAdd = await exportFile({ companyId: company.id, month: MONTH, templateId: created.body.id, kind: 'add' });
    expect(noAdd.statusCode).toBe(400);
    expect(noAdd.json().message).toContain('增员');

    // 𠮷 is not in GBK: refused with the person and column named, not written as '?'
    await call('PUT', '/api/accountsStaff', { ...(await call('GET', `/api/accountsStaff/${li.id}`)).body, staffName: '李𠮷' });
    const rare = await exportFile({ companyId: company.id, month: MONTH, templateId: created.body.id, kind: 'remove' });
    expect(rare.statusCode).toBe(400);
    expect(rare.json().message).toContain('李𠮷');
    expect(rare.json().message).toContain('姓名');
  });

  it('refuses callers without the codes, bad parameters and broken templates', async () => {
    const si = await templateId('深圳 社保 增减员');
    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const employee = api(t.app, await tokenFor(t, await createUser(t, { username: `emp_sichg_${Date.now()}`, roleIds: [roleId], jobId })));
    const nobody = await userWithCodes(t, ['ACCOUNTSSTAFF_ALL', 'PAYOUT_ALL']);
    for (const who of [employee, api(t.app, nobody.token)]) {
      expect((await who('GET', `/api/siChanges?companyId=1&month=${MONTH}&templateId=${si}`)).status).toBe(403);
      expect((await who('GET', '/api/siChanges/templates')).status).toBe(403);
      expect((await who('GET', '/api/siChangeTemplate')).status).toBe(403);
    }
    expect((await exportFile({ companyId: 1, month: MONTH, templateId: si, kind: 'add' }, nobody.token)).statusCode).toBe(403);
    // a reader may preview but not download
    const reader = await userWithCodes(t, ['SICHANGES_SELECT']);
    const { company } = await companyWithStaff(t.app, token, [vectorStaff(6000)]);
    expect((await api(t.app, reader.token)('GET', `/api/siChanges?companyId=${company.id}&month=${MONTH}&templateId=${si}`)).status).toBe(200);
    expect((await exportFile({ companyId: company.id, month: MONTH, templateId: si, kind: 'add' }, reader.token)).statusCode).toBe(403);

    const choices = await call('GET', '/api/siChanges/templates');
    expect(choices.body.content.filter((c: { region: string }) => ['北京', '深圳'].includes(c.region)).map((c: { templateName: string; target: string; kinds: string[] }) => [c.templateName, c.target, c.kinds.join()])).toEqual([
      ['北京 社保 增减员', 'si', 'add,remove,base'],
      ['深圳 社保 增减员', 'si', 'add,remove,base'],
      ['北京 公积金 汇缴变更', 'hf', 'add,remove,base'],
      ['深圳 公积金 汇缴变更', 'hf', 'add,remove,base'],
    ]);

    const bad = async (qs: string) => (await call('GET', `/api/siChanges?${qs}`)).status;
    expect(await bad(`companyId=${company.id}&month=2026-13&templateId=${si}`)).toBe(400);
    expect(await bad(`companyId=${company.id}&month=${MONTH}`)).toBe(400);
    expect(await bad(`companyId=x&month=${MONTH}&templateId=${si}`)).toBe(400);
    expect(await bad(`companyId=${company.id}&month=${MONTH}&templateId=${si}&kind=all`)).toBe(400);
    expect(await bad(`companyId=${company.id}&month=${MONTH}&templateId=${si}&size=1000`)).toBe(400);
    expect(await bad(`companyId=${company.id}&month=${MONTH}&templateId=999999`)).toBe(404);
    expect(await bad(`companyId=999999&month=${MONTH}&templateId=${si}`)).toBe(404);
    expect((await exportFile({ companyId: company.id, month: MONTH, templateId: si })).statusCode).toBe(400);

    // a template's columns are checked when it is saved: the part is named
    const broken = await call('POST', '/api/siChangeTemplate', { templateName: '坏模板', region: '某地', target: 'si', fileType: 'xlsx', encoding: 'GBK', addColumns: '[{"title":"姓名"' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toContain('增员列');
    const unknownField = await call('POST', '/api/siChangeTemplate', { templateName: '坏模板2', region: '某地', target: 'si', fileType: 'xlsx', encoding: 'GBK', addColumns: '[{"title":"工号","field":"employeeNo"}]' });
    expect(unknownField.status).toBe(400);
    const unknownInEnglish = await t.app.inject({ method: 'POST', url: '/api/siChangeTemplate', headers: { ...bearer(token), 'accept-language': 'en' }, payload: { templateName: '坏模板2', region: '某地', target: 'si', fileType: 'xlsx', encoding: 'GBK', addColumns: '[{"title":"工号","field":"employeeNo"}]' } });
    // the part and zod's complaint at its path travel as codes: each language says the whole sentence
    expect(unknownField.body).toMatchObject({ code: 'SICHANGETEMPLATE_INVALID', message: '社保模板“坏模板2”的增员列有误：0.field 0.field无效' });
    expect(unknownInEnglish.json()).toMatchObject({ code: 'SICHANGETEMPLATE_INVALID', message: 'The SI list template "坏模板2" has an error in Addition columns: 0.field: 0.field is invalid' });
    const empty = await call('POST', '/api/siChangeTemplate', { templateName: '坏模板3', region: '某地', target: 'si', fileType: 'xlsx', encoding: 'GBK' });
    expect(empty.status).toBe(400);
    const txt = await call('POST', '/api/siChangeTemplate', { templateName: '坏模板4', region: '某地', target: 'si', fileType: 'txt', encoding: 'GBK', addColumns: '[{"title":"姓名","field":"name"}]' });
    expect(txt.status).toBe(400);
  });
});
