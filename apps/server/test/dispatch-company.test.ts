import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { companyBody, createCompany, createStaff, scopedUser, uniq } from './dispatch-fixtures.ts';

const session = adminApp();

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, tk = session.token) =>
  session.app.inject({ method, url, headers: bearer(tk), payload: payload as never });

describe('accountsCompany CRUD', () => {
  it('creates with 201 and the row: money in yuan, work-injury ratio from the dispatch company, owner department', async () => {
    const res = await api('POST', '/api/accountsCompany', companyBody({ companyName: '华北测试单位', fee: 123.45, gjjBase: 8000.1 }));
    expect(res.statusCode).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({
      companyName: '华北测试单位',
      fee: 123.45,
      gjjBase: 8000.1,
      dispatchCompany: '北京华派人力资源有限公司',
      gongshangRatioCompany: 0.004,
      serviceType: '劳务派遣',
    });
    expect(row.id).toBeGreaterThan(0);
    expect(row.deptId).toBe(1);
    expect(typeof row.createTime).toBe('string');
    const stored = await session.app.ctx.db.selectFrom('accounts_company').select(['fee', 'gjj_base']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(Number(stored.fee)).toBe(12345);
    expect(Number(stored.gjj_base)).toBe(800010);
  });

  it('answers missing required fields with the spec messages', async () => {
    const res = await api('POST', '/api/accountsCompany', {});
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toBe('请输入单位名称');
    expect(body.fieldErrors).toMatchObject({
      companyName: '请输入单位名称',
      serviceType: '请选择服务方式',
      feeType: '请选择服务费类型',
      disabledPay: '请输入残疾人缴费',
      fee: '请输入服务费',
      dispatchCompany: '请选择派遣单位',
      gjjBase: '请输入公积金基数',
      yanglaoBase: '请输入养老保险基数',
      yilaoBase: '请输入医疗保险基数',
      shiyeBase: '请输入失业保险基数',
      gongshangBase: '请输入工伤保险基数',
      shengyuBase: '请输入生育保险基数',
    });
    expect(body.fieldErrors.yilaoBaseSelf).toBeUndefined();
    expect(typeof body.timestamp).toBe('string');
  });

  it('refuses unknown dispatch companies and dictionary values, bad amounts and an id on create', async () => {
    const a = await api('POST', '/api/accountsCompany', companyBody({ dispatchCompany: '不存在的派遣公司' }));
    expect(a.statusCode).toBe(400);
    expect(a.json().fieldErrors.dispatchCompany).toContain('派遣单位不存在');
    const b = await api('POST', '/api/accountsCompany', companyBody({ serviceType: '随便' }));
    expect(b.statusCode).toBe(400);
    expect(b.json().fieldErrors.serviceType).toContain('不是可选值');
    const c = await api('POST', '/api/accountsCompany', companyBody({ fee: 1.234 }));
    expect(c.statusCode).toBe(400);
    expect(c.json().fieldErrors.fee).toBe('服务费最多两位小数');
    const d = await api('POST', '/api/accountsCompany', companyBody({ id: 5 }));
    expect(d.statusCode).toBe(400);
  });

  it('keeps company names unique (409)', async () => {
    const name = uniq('唯一单位');
    await createCompany(session.app, session.token, { companyName: name });
    const res = await api('POST', '/api/accountsCompany', companyBody({ companyName: name }));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('单位名称已存在');
  });

  it('lists with 0-based paging, sort and the declared filters', async () => {
    const tag = uniq('筛选');
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createCompany(session.app, session.token, {
          companyName: `${tag}-${i}`,
          contact: i === 2 ? '李%联系人' : '王经理',
          phone: i === 3 ? '021-55550000' : '010-88886666',
          serviceType: i === 4 ? '人事代理' : '劳务派遣',
        }),
      );
    }
    const page0 = (await api('GET', `/api/accountsCompany?companyName=${encodeURIComponent(tag)}&page=0&size=2&sort=id,asc`)).json();
    expect(page0.totalElements).toBe(5);
    expect(page0.content.map((r: { id: number }) => r.id)).toEqual([made[0].id, made[1].id]);
    const page2 = (await api('GET', `/api/accountsCompany?companyName=${encodeURIComponent(tag)}&page=2&size=2&sort=id,asc`)).json();
    expect(page2.content.map((r: { id: number }) => r.id)).toEqual([made[4].id]);
    const byDefault = (await api('GET', `/api/accountsCompany?companyName=${encodeURIComponent(tag)}`)).json();
    expect(byDefault.content[0].id).toBe(made[4].id); // id,desc
    const byName = (await api('GET', `/api/accountsCompany?companyName=${encodeURIComponent(tag)}&sort=companyName,desc`)).json();
    expect(byName.content[0].companyName).toBe(`${tag}-4`);
    // LIKE wildcards in user input are literal
    const contact = (await api('GET', `/api/accountsCompany?contact=${encodeURIComponent('李%')}`)).json();
    expect(contact.content.map((r: { id: number }) => r.id)).toEqual([made[2].id]);
    const phone = (await api('GET', `/api/accountsCompany?phone=021-5555&companyName=${encodeURIComponent(tag)}`)).json();
    expect(phone.totalElements).toBe(1);
    const service = (await api('GET', `/api/accountsCompany?serviceType=${encodeURIComponent('人事代理')}&companyName=${encodeURIComponent(tag)}`)).json();
    expect(service.content.map((r: { id: number }) => r.id)).toEqual([made[4].id]);
    const byId = (await api('GET', `/api/accountsCompany?id=${made[1].id}`)).json();
    expect(byId.content.map((r: { id: number }) => r.id)).toEqual([made[1].id]);
    expect((await api('GET', '/api/accountsCompany?sort=license2,asc')).statusCode).toBe(400);
    expect((await api('GET', '/api/accountsCompany?page=-1')).statusCode).toBe(400);
  });

  it('offers every visible company at /all (the list itself caps size at 1000)', async () => {
    const list = (await api('GET', '/api/accountsCompany?page=0&size=9999&sort=id,desc')).json();
    const all = (await api('GET', '/api/accountsCompany/all')).json();
    expect(all.totalElements).toBe(list.totalElements);
    expect(all.content.length).toBe(list.totalElements);
    expect(all.content[0].id).toBe(list.content[0].id);
  });

  it('updates with 204, renames the company on its staff, reads by id and answers 404 for unknown ids', async () => {
    const c = await createCompany(session.app, session.token);
    const s = await createStaff(session.app, session.token, c.id);
    const newName = uniq('改名单位');
    const put = await api('PUT', '/api/accountsCompany', { ...c, companyName: newName, dispatchCompany: '北京众信劳务派遣有限公司' });
    expect(put.statusCode).toBe(204);
    const got = (await api('GET', `/api/accountsCompany/${c.id}`)).json();
    expect(got.companyName).toBe(newName);
    expect(got.gongshangRatioCompany).toBe(0.002);
    const staff = (await api('GET', `/api/accountsStaff/${s.id}`)).json();
    expect(staff.companyName).toBe(newName);
    expect((await api('GET', '/api/accountsCompany/999999')).statusCode).toBe(404);
    expect((await api('PUT', '/api/accountsCompany', { ...c, id: 999999 })).statusCode).toBe(404);
    expect((await api('GET', '/api/accountsCompany/abc')).statusCode).toBe(400);
  });

  it('refuses to delete a company that still has staff (409) and deletes it once empty (200)', async () => {
    const c = await createCompany(session.app, session.token);
    const s = await createStaff(session.app, session.token, c.id);
    const refused = await api('DELETE', `/api/accountsCompany/${c.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('该单位下还有员工，不能删除');
    const batch = await api('DELETE', '/api/accountsCompany', [c.id]);
    expect(batch.statusCode).toBe(409);
    expect((await api('DELETE', `/api/accountsStaff/${s.id}`)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/accountsCompany/${c.id}`)).statusCode).toBe(200);
    expect((await api('GET', `/api/accountsCompany/${c.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/accountsCompany/${c.id}`)).statusCode).toBe(404);
  });
});

describe('accountsCompany permissions and data scope', () => {
  it('needs the ACCOUNTSCOMPANY codes', async () => {
    const u = await scopedUser(session.app, { username: uniq('nocode'), codes: ['ACCENTRY_ALL'] });
    expect((await api('GET', '/api/accountsCompany', undefined, u.token)).statusCode).toBe(403);
    expect((await api('POST', '/api/accountsCompany', companyBody(), u.token)).statusCode).toBe(403);
    expect((await session.app.inject({ method: 'GET', url: '/api/accountsCompany' })).statusCode).toBe(401);
    const reader = await scopedUser(session.app, { username: uniq('reader'), codes: ['ACCOUNTSCOMPANY_SELECT'], dataScope: '全部' });
    expect((await api('GET', '/api/accountsCompany', undefined, reader.token)).statusCode).toBe(200);
    expect((await api('POST', '/api/accountsCompany', companyBody(), reader.token)).statusCode).toBe(403);
    expect((await api('DELETE', '/api/accountsCompany/1', undefined, reader.token)).statusCode).toBe(403);
  });

  it('shows a 本级 user only the companies of their own department, and stamps new ones with it', async () => {
    const u = await scopedUser(session.app, { username: uniq('scoped'), codes: ['ACCOUNTSCOMPANY_ALL', 'ACCOUNTSSTAFF_ALL'], dataScope: '本级' });
    const adminCompany = await createCompany(session.app, session.token);
    const own = (await api('POST', '/api/accountsCompany', companyBody(), u.token)).json();
    expect(own.deptId).toBe(u.deptId);
    const list = (await api('GET', '/api/accountsCompany?size=1000', undefined, u.token)).json();
    expect(list.content.map((r: { id: number }) => r.id)).toEqual([own.id]);
    expect((await api('GET', '/api/accountsCompany/all', undefined, u.token)).json().totalElements).toBe(1);
    expect((await api('GET', `/api/accountsCompany/${adminCompany.id}`, undefined, u.token)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/accountsCompany/${adminCompany.id}`, undefined, u.token)).statusCode).toBe(404);
    // and their staff may only belong to their companies
    const s = await api('POST', '/api/accountsStaff', { ...(await import('./dispatch-fixtures.ts')).staffBody(adminCompany.id) }, u.token);
    expect(s.statusCode).toBe(400);
    expect(s.json().fieldErrors.companyId).toBe('所属单位不存在或无权访问');
    // the admin (全部) sees both
    expect((await api('GET', `/api/accountsCompany/${own.id}`)).statusCode).toBe(200);
  });
});
