import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { adminCaller, type Caller, createRole, createUser, idOf, userWithCodes } from './system-fixtures.ts';

let t: TestApp;
let admin: Caller;
let head: number;
let business: number;
let dispatched: number;
let hr: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCaller(t);
  head = await idOf(t, 'sys_dept', '总公司');
  business = await idOf(t, 'sys_dept', '业务部');
  dispatched = await idOf(t, 'sys_dept', '派遣员工');
  hr = await idOf(t, 'sys_dept', '人力资源部');
});
afterAll(async () => {
  await t.close();
});

type Node = { id: number; name: string; label: string; children?: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe('departments', () => {
  it('lists the tree with labels, filters by name and enabled', async () => {
    const res = (await admin('GET', '/api/dept')).json();
    expect(res.totalElements).toBe(5);
    expect(res.content).toHaveLength(1);
    expect(res.content[0]).toMatchObject({ id: head, name: '总公司', label: '总公司', pid: 0, enabled: true });
    const businessNode = res.content[0].children.find((c: Node) => c.id === business);
    expect(businessNode.children.map((c: Node) => c.name)).toEqual(['派遣员工']);
    const byName = (await admin('GET', `/api/dept?name=${encodeURIComponent('派遣')}`)).json();
    expect(byName).toMatchObject({ totalElements: 1, content: [{ id: dispatched }] });
    expect((await admin('GET', '/api/dept?enabled=false')).json().totalElements).toBe(0);
  });

  it('applies the data scope; an empty 自定义 scope sees nothing', async () => {
    const custom = await userWithCodes(t, ['DEPT_ALL'], { dataScope: '自定义', depts: [business] });
    const visible = flatten((await custom.call('GET', '/api/dept')).json().content);
    expect(visible.map((d) => d.id).sort()).toEqual([business, dispatched].sort());
    expect((await custom.call('PUT', '/api/dept', { id: hr, name: '人事部', pid: head, enabled: true })).statusCode).toBe(404);
    expect((await custom.call('POST', '/api/dept', { name: '外部门', pid: hr, enabled: true })).statusCode).toBe(400);
    expect((await custom.call('POST', '/api/dept', { name: '顶级', pid: 0, enabled: true })).statusCode).toBe(403);
    const own = await userWithCodes(t, ['DEPT_SELECT'], { dataScope: '本级', deptId: business });
    expect(flatten((await own.call('GET', '/api/dept')).json().content).map((d) => d.id)).toEqual([business]);
    const empty = await userWithCodes(t, ['DEPT_ALL'], { dataScope: '自定义', depts: [] });
    expect((await empty.call('GET', '/api/dept')).json()).toEqual({ content: [], totalElements: 0 });
    // The user screen needs the tree too.
    const userManager = await userWithCodes(t, ['USER_SELECT']);
    expect((await userManager.call('GET', '/api/dept')).statusCode).toBe(200);
  });

  it('creates and updates with parent checks and no cycles', async () => {
    expect((await admin('POST', '/api/dept', { pid: head, enabled: true })).json().message).toBe('请输入名称');
    expect((await admin('POST', '/api/dept', { name: '孤儿', pid: 987654, enabled: true })).json().message).toBe('上级部门不存在');
    const created = await admin('POST', '/api/dept', { name: '研发部', pid: head, enabled: true });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: '研发部', pid: head, enabled: true, label: '研发部' });
    const sub = (await admin('POST', '/api/dept', { name: '研发一组', pid: created.json().id })).json();
    const cycle = await admin('PUT', '/api/dept', { id: created.json().id, name: '研发部', pid: sub.id, enabled: true });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toBe('上级不能为自己或下级');
    expect((await admin('PUT', '/api/dept', { id: sub.id, name: '研发二组', pid: head, enabled: false })).statusCode).toBe(204);
    expect((await admin('GET', `/api/dept/${sub.id}`)).json()).toMatchObject({ name: '研发二组', pid: head, enabled: false });
  });

  it('refuses deleting the root and departments with children, users, positions or roles', async () => {
    const root = await admin('DELETE', `/api/dept/${head}`);
    expect(root.statusCode).toBe(400);
    expect(root.json().message).toBe('根部门不能删除');
    const withChild = await admin('DELETE', `/api/dept/${business}`);
    expect(withChild.statusCode).toBe(409);
    expect(withChild.json().message).toBe('所选部门存在下级部门，请先删除下级部门');

    const mk = async (name: string) => (await admin('POST', '/api/dept', { name, pid: head, enabled: true })).json().id as number;
    const withUser = await mk('有用户');
    await createUser(t, { username: 'dept_user', roleIds: [], deptId: withUser });
    expect((await admin('DELETE', `/api/dept/${withUser}`)).json()).toMatchObject({ status: 409, message: '所选部门存在用户关联，请解除后再试！' });
    const withJob = await mk('有岗位');
    expect((await admin('POST', '/api/job', { name: '岗位A', dept: { id: withJob }, sort: 1 })).statusCode).toBe(201);
    expect((await admin('DELETE', `/api/dept/${withJob}`)).json()).toMatchObject({ status: 409, message: '所选部门存在岗位关联，请解除后再试！' });
    const withRole = await mk('有角色');
    await createRole(t, { name: '部门角色', dataScope: '自定义', depts: [withRole] });
    expect((await admin('DELETE', `/api/dept/${withRole}`)).json()).toMatchObject({ status: 409, message: '所选部门存在角色关联，请解除后再试！' });
    const free = await mk('空部门');
    expect((await admin('DELETE', `/api/dept/${free}`)).statusCode).toBe(200);
    expect((await admin('GET', `/api/dept/${free}`)).statusCode).toBe(404);
  });
});

describe('positions (job)', () => {
  it('lists by sort ascending with dept and deptSuperiorName, filters by name, enabled and deptId', async () => {
    const res = (await admin('GET', '/api/job')).json();
    const sorts = res.content.map((j: { sort: number }) => j.sort);
    expect(sorts).toEqual([...sorts].sort((a: number, b: number) => a - b));
    const clerk = res.content.find((j: { name: string }) => j.name === '人事专员');
    expect(clerk).toMatchObject({ dept: { id: hr, name: '人力资源部' }, deptSuperiorName: '总公司', enabled: true });
    expect((await admin('GET', `/api/job?deptId=${business}`)).json().content.map((j: { name: string }) => j.name).sort()).toEqual(['业务经理', '普通员工'].sort());
    expect((await admin('GET', `/api/job?name=${encodeURIComponent('会计')}`)).json().totalElements).toBe(1);
    expect((await admin('GET', '/api/job?enabled=false')).json().totalElements).toBe(0);
  });

  it('validates department and sort, keeps names unique per department', async () => {
    expect((await admin('POST', '/api/job', { name: '无部门', sort: 1 })).json().message).toBe('所属部门不能为空');
    expect((await admin('POST', '/api/job', { name: '序号', dept: { id: hr }, sort: 1000 })).json().message).toBe('排序不能大于999');
    expect((await admin('POST', '/api/job', { name: '序号', dept: { id: 987654 }, sort: 1 })).statusCode).toBe(400);
    const created = await admin('POST', '/api/job', { name: '招聘专员', dept: { id: hr } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: '招聘专员', sort: 999, enabled: true, dept: { id: hr, name: '人力资源部' } });
    expect((await admin('POST', '/api/job', { name: '招聘专员', dept: { id: hr } })).statusCode).toBe(409);
    expect((await admin('POST', '/api/job', { name: '招聘专员', dept: { id: business } })).statusCode).toBe(201);
    expect((await admin('PUT', '/api/job', { id: created.json().id, name: '招聘主管', dept: { id: hr }, sort: 5, enabled: false })).statusCode).toBe(204);
    expect((await admin('GET', `/api/job/${created.json().id}`)).json()).toMatchObject({ name: '招聘主管', sort: 5, enabled: false });
  });

  it('refuses deleting a position users hold', async () => {
    const job = (await admin('POST', '/api/job', { name: '在岗', dept: { id: hr } })).json().id;
    await createUser(t, { username: 'job_holder', roleIds: [], jobId: job });
    const res = await admin('DELETE', `/api/job/${job}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('所选岗位存在用户关联，请解除关联再试！');
  });

  it('applies the data scope and lets user managers read', async () => {
    const custom = await userWithCodes(t, ['USERJOB_ALL'], { dataScope: '自定义', depts: [business] });
    const names = (await custom.call('GET', '/api/job?size=100')).json().content.map((j: { dept: { id: number } }) => j.dept.id);
    expect(names.every((d: number) => d === business || d === dispatched)).toBe(true);
    expect(names.length).toBeGreaterThan(0);
    expect((await custom.call('POST', '/api/job', { name: '越权岗位', dept: { id: hr } })).statusCode).toBe(400);
    const empty = await userWithCodes(t, ['USERJOB_ALL'], { dataScope: '自定义', depts: [] });
    expect((await empty.call('GET', '/api/job')).json()).toEqual({ content: [], totalElements: 0 });
    const userManager = await userWithCodes(t, ['USER_CREATE']);
    expect((await userManager.call('GET', '/api/job')).statusCode).toBe(200);
    expect((await userManager.call('POST', '/api/job', { name: 'x', dept: { id: hr } })).statusCode).toBe(403);
  });
});
