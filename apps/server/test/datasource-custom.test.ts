import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentUser } from '../src/core/auth/currentUser.ts';
import { openDataSource } from '../src/modules/operations/dataSources/read.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, companyBody, createCompany, createStaff, idCard, scopedUser } from './dispatch-fixtures.ts';

/**
 * Custom data sources: projections of our own datasets, read with the reader's rights. A 本级 user sees the
 * staff of their department's companies only, in the preview and in a task's read (openDataSource with them as
 * owner); a user without the staff screen's permission cannot read a staff projection at all.
 */
let t: TestApp;
let token: string;
let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${n++}`;
const post = (url: string, payload: Record<string, unknown>, tok = token) => t.app.inject({ method: 'POST', url, headers: bearer(tok), payload });
const get = (url: string, tok = token) => t.app.inject({ method: 'GET', url, headers: bearer(tok) });
const ownerOf = async (userId: number) => ({ ...(await loadCurrentUser(t.app.ctx.db, userId))!, tokenJti: 'x', tokenExp: 0 });

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('custom data sources', () => {
  it('lists the datasets and validates a projection with the spec’s messages', async () => {
    const datasets = (await get('/customDatasource/datasets')).json();
    const staff = datasets.find((d: { key: string }) => d.key === 'accountsStaff');
    expect(staff.label).toBe('员工花名册');
    expect(staff.fields.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['staffName', 'idCard', 'companyName', 'salary']));
    expect((await post('/customDatasource/create', { dataset: 'accountsStaff', characterEncoding: 'UTF-8', tableData: [{ field: 'staffName' }] })).json().message).toBe('数据源名称必填');
    expect((await post('/customDatasource/create', { name: 'x', dataset: 'accountsStaff', tableData: [{ field: 'staffName' }] })).json().message).toBe('字符编码必填');
    expect((await post('/customDatasource/create', { name: 'x', dataset: 'sys_user', characterEncoding: 'UTF-8', tableData: [{ field: 'password' }] })).json().message).toBe('未知的数据集：sys_user');
    const unknown = await post('/customDatasource/create', { name: 'x', dataset: 'accountsStaff', characterEncoding: 'UTF-8', tableData: [{ field: 'staffName' }, { field: 'passwordHash' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('数据集“员工花名册”没有这些字段：passwordHash');
    const created = await post('/customDatasource/create', { name: uniq('花名册'), dataset: 'accountsStaff', characterEncoding: 'GBK', tableData: [{ field: 'staffName' }, { fieldName: '身份证号' }] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().tableData).toEqual([
      { fieldName: '姓名', field: 'staffName', type: 'string' },
      { fieldName: '身份证号', field: 'idCard', type: 'idCard' },
    ]);
    expect((await post('/customDatasource/create', { name: created.json().name, dataset: 'accountsStaff', characterEncoding: 'GBK', tableData: [{ field: 'staffName' }] })).statusCode).toBe(409);
    const upd = await post('/customDatasource/update', { id: created.json().id, name: created.json().name, dataset: 'accountsStaff', characterEncoding: 'UTF-8', tableData: [{ field: 'idCard' }] });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().tableData.map((f: { field: string }) => f.field)).toEqual(['idCard']);
    const list = (await get(`/customDatasource/list?pageNumber=1&pageSize=10&name=${encodeURIComponent(created.json().name)}`)).json();
    expect(list.totalElements).toBe(1);
    expect(list.content[0].datasetName).toBe('员工花名册');
  });

  it('reads staff with the owner’s company scope, and not at all without the staff permission', async () => {
    const scoped = await scopedUser(t.app, { username: uniq('scoped'), codes: ['ACCOUNTSCOMPANY_ALL', 'ACCOUNTSSTAFF_SELECT', 'DATASOURCE_ALL'], dataScope: '本级' });
    // a company of the scoped user's department (created by them, so stamped with it) and one of the admin's
    const own = (await post('/api/accountsCompany', companyBody(), scoped.token)).json();
    const foreign = await createCompany(t.app, token);
    await createStaff(t.app, token, own.id, { staffName: '本部员工', idCard: idCard('1990-01-01', 11) });
    await createStaff(t.app, token, foreign.id, { staffName: '外部员工', idCard: idCard('1991-02-02', 12) });
    const custom = (
      await post('/customDatasource/create', { name: uniq('员工'), dataset: 'accountsStaff', characterEncoding: 'UTF-8', tableData: [{ field: 'staffName' }, { field: 'companyName' }, { field: 'salary' }] })
    ).json();
    const source = await post('/dataOrigin/save', { dataName: uniq('自定义'), type: 'custom', characterEncoding: 'UTF-8', customDatabase: custom.id }, scoped.token);
    expect(source.statusCode, source.body).toBe(201);
    const id = source.json().id;

    const names = (rows: Record<string, unknown>[]) => rows.map((r) => r.姓名).sort();
    // the preview as each caller
    const adminPreview = (await get(`/dataOrigin/details?id=${id}`)).json();
    expect(names(adminPreview.pvData)).toEqual(['外部员工', '本部员工']);
    const scopedPreview = (await get(`/dataOrigin/details?id=${id}`, scoped.token)).json();
    expect(scopedPreview.pvData).toEqual([{ 姓名: '本部员工', 单位名称: own.companyName, 基本工资: expect.any(Number) }]);
    // a task run as the scoped owner
    const src = await openDataSource(t.app, id, await ownerOf(scoped.userId));
    const rows: Record<string, unknown>[] = [];
    for await (const r of src.rows) rows.push(r);
    await src.close();
    expect(src.fields).toEqual(['姓名', '单位名称', '基本工资']);
    expect(names(rows)).toEqual(['本部员工']);

    // without ACCOUNTSSTAFF_* the projection is refused, with the reason
    const noStaff = await scopedUser(t.app, { username: uniq('nostaff'), codes: ['DATASOURCE_ALL'], dataScope: '全部' });
    const refused = (await get(`/dataOrigin/details?id=${id}`, noStaff.token)).json();
    expect(refused.pvData).toEqual([]);
    expect(refused.pvError).toBe('没有查看“员工花名册”的权限，不能读取该数据源');
    await expect(openDataSource(t.app, id, await ownerOf(noStaff.userId))).rejects.toThrow('没有查看“员工花名册”的权限');

    // a custom source in use cannot be deleted; the data source can, then the custom one
    expect((await post('/customDatasource/del', { id: custom.id })).statusCode).toBe(409);
    expect((await post('/dataOrigin/del', { id })).statusCode).toBe(200);
    expect((await post('/customDatasource/del', { id: custom.id })).statusCode).toBe(200);
  });
});
