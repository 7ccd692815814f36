import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, badCheckDigit, createCompany, createStaff, idCard, staffBody, uniq } from './dispatch-fixtures.ts';

let t: TestApp;
let token: string;
let companyId: number;
beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  companyId = (await createCompany(t.app, token, { companyName: '员工测试单位' })).id;
});
afterAll(async () => {
  await t?.close();
});

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, tk = token) =>
  t.app.inject({ method, url, headers: bearer(tk), payload: payload as never });

describe('accountsStaff create and validation', () => {
  it('creates with 201; derives sex, birth date and age from the ID card, the company name and the reminder date', async () => {
    const id = idCard('1988-02-29', 13);
    const { jobState: _omit, ...body } = staffBody(companyId, { idCard: id, sex: '女', born: '2000-01-01', age: 3, companyName: '伪造', contractEnd: '2026-03-31' });
    const res = await api('POST', '/api/accountsStaff', body);
    expect(res.statusCode).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({
      companyId,
      companyName: '员工测试单位',
      idCard: id,
      sex: '男',
      born: '1988-02-29',
      contractWarn: '2026-03-01',
      contractWarnState: '未提醒',
      jobState: '在职',
      salary: 8000.5,
      yanglaoRatioSelf: 0.08,
    });
    expect(row.age).toBeGreaterThanOrEqual(36);
  });

  it('keeps a reminder date the client chose and normalises a 15-digit ID card to 18 digits', async () => {
    const row = await createStaff(t.app, token, companyId, { idCard: '110101880101002', contractWarn: '2026-12-01', staffName: '李四' });
    expect(row.idCard).toBe(idCard('1988-01-01', 2));
    expect(row.contractWarn).toBe('2026-12-01');
    expect(row.sex).toBe('女');
  });

  it('answers an empty body with every spec message', async () => {
    const res = await api('POST', '/api/accountsStaff', {});
    expect(res.statusCode).toBe(400);
    const fe = res.json().fieldErrors;
    expect(fe).toMatchObject({
      companyId: '请选择所属单位',
      staffName: '请输入员工姓名',
      censusType: '请选择户籍类型',
      idCard: '请输入身份证号',
      phone: '请输入手机号',
      inductionDate: '请选择入职日期',
      salary: '请输入基本工资',
      taxesType: '请选择税种种类',
      insureType: '请选择保险种类',
      deduct: '请输入专项附加扣除',
      dispatchDate: '请选择派遣日期',
      contractState: '请选择合同状态',
      contractStart: '请选择开始日期',
      contractEnd: '请选择结束日期',
      contractWarn: '请选择提醒日期',
      insuredState: '请选择参保状态',
      insuredTime: '请选择参保时间',
      gjjBase: '请输入公积金基数',
      gjjRatio: '请输入公积金比例',
      yiliaoBaseSelf: '请输入医疗保险个人基数',
      gongshangRatioCompany: '请输入工伤保险单位比例',
      shengyuRatioCompany: '请输入生育保险单位比例',
    });
    expect(fe.jobState).toBeUndefined(); // defaults to 在职
    const noJobState = await api('POST', '/api/accountsStaff', staffBody(companyId, { jobState: '' }));
    expect(noJobState.json().fieldErrors.jobState).toBe('请选择在职状态');
  });

  it('refuses a wrong check digit, a contract that starts after it ends, unknown dictionary values and ratios above 1', async () => {
    const bad = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: badCheckDigit(idCard('1990-01-01', 21)) }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors.idCard).toBe('身份证号码不正确');
    const format = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: '12345' }));
    expect(format.json().fieldErrors.idCard).toBe('身份证号码不正确');
    const dates = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: idCard('1990-01-01', 23), contractStart: '2025-05-02', contractEnd: '2025-05-01' }));
    expect(dates.statusCode).toBe(400);
    expect(dates.json().message).toBe('合同开始日期不能晚于结束日期');
    const census = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: idCard('1990-01-01', 25), censusType: '火星' }));
    expect(census.statusCode).toBe(400);
    expect(census.json().fieldErrors.censusType).toContain('不是可选值');
    const ratio = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: idCard('1990-01-01', 27), gjjRatio: 1.5 }));
    expect(ratio.json().fieldErrors.gjjRatio).toBe('公积金比例必须在0到1之间');
    const noCompany = await api('POST', '/api/accountsStaff', staffBody(999999, { idCard: idCard('1990-01-01', 29) }));
    expect(noCompany.statusCode).toBe(400);
    expect(noCompany.json().fieldErrors.companyId).toBe('所属单位不存在或无权访问');
  });

  it('allows one ID card once per company (409) but in several companies', async () => {
    const id = idCard('1991-05-05', 31);
    await createStaff(t.app, token, companyId, { idCard: id });
    const again = await api('POST', '/api/accountsStaff', staffBody(companyId, { idCard: id }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该单位已存在此身份证号的员工');
    const other = await createCompany(t.app, token);
    expect((await api('POST', '/api/accountsStaff', staffBody(other.id, { idCard: id }))).statusCode).toBe(201);
  });
});

describe('accountsStaff list, update, delete', () => {
  let companyA: number;
  let companyB: number;
  const made: Record<string, any>[] = [];
  beforeAll(async () => {
    companyA = (await createCompany(t.app, token, { companyName: uniq('甲单位') })).id;
    companyB = (await createCompany(t.app, token, { companyName: uniq('乙单位') })).id;
    const specs = [
      { staffName: '王小明', censusType: 'bennong', jobState: '在职', phone: '13900000001', contractState: '已签订' },
      { staffName: '王小红', censusType: 'bencheng', jobState: '离职', phone: '13900000002', contractState: '已到期' },
      { staffName: '赵_一', censusType: 'waicheng', jobState: '在职', phone: '13700000003', contractState: '已签订' },
      { staffName: '钱二', censusType: 'wainong', jobState: '试用', phone: '13900000004', contractState: '已续签' },
    ];
    for (let i = 0; i < specs.length; i++) made.push(await createStaff(t.app, token, companyA, { ...specs[i], idCard: idCard('1985-06-15', 101 + i * 2) }));
    made.push(await createStaff(t.app, token, companyB, { staffName: '王小明', idCard: idCard('1985-06-15', 101) }));
    await t.app.ctx.db.updateTable('accounts_staff').set({ contract_warn_state: '已提醒' }).where('id', '=', made[1].id).execute();
  });

  const ids = (res: { json(): any }) => res.json().content.map((r: { id: number }) => r.id);

  it('filters by company, name, ID card, census type, job state, phone, contract state and reminder state', async () => {
    expect((await api('GET', `/api/accountsStaff?companyId=${companyA}`)).json().totalElements).toBe(4);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&staffName=${encodeURIComponent('王小')}&sort=id,asc`))).toEqual([made[0].id, made[1].id]);
    expect(ids(await api('GET', `/api/accountsStaff?staffName=${encodeURIComponent('王小明')}&sort=id,asc`))).toEqual([made[0].id, made[4].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&staffName=_`))).toEqual([made[2].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&idCard=${made[3].idCard.slice(-6)}`))).toEqual([made[3].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&censusType=wainong`))).toEqual([made[3].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&jobState=${encodeURIComponent('离职')}`))).toEqual([made[1].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&phone=137`))).toEqual([made[2].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&contractState=${encodeURIComponent('已续签')}`))).toEqual([made[3].id]);
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&contractWarnState=${encodeURIComponent('已提醒')}`))).toEqual([made[1].id]);
    expect((await api('GET', '/api/accountsStaff?companyId=abc')).statusCode).toBe(400);
  });

  it('pages from 0 and sorts by any declared field', async () => {
    const p0 = await api('GET', `/api/accountsStaff?companyId=${companyA}&page=0&size=3&sort=phone,asc&sort=id,asc`);
    expect(p0.json().totalElements).toBe(4);
    expect(p0.json().content).toHaveLength(3);
    const p1 = await api('GET', `/api/accountsStaff?companyId=${companyA}&page=1&size=3&sort=phone,asc&sort=id,asc`);
    expect(p1.json().content).toHaveLength(1);
    const all = [...p0.json().content, ...p1.json().content].map((r: { phone: string }) => r.phone);
    expect(all).toEqual([...all].sort());
    expect(ids(await api('GET', `/api/accountsStaff?companyId=${companyA}&sort=contractEnd,desc&size=1`))).toHaveLength(1);
  });

  it('updates with 204: the ID card is re-read and moving the reminder date into the future clears the reminder', async () => {
    const s = made[1];
    const newId = idCard('1992-12-24', 202);
    const put = await api('PUT', '/api/accountsStaff', { ...s, idCard: newId, contractEnd: '2099-12-31', contractWarn: '2099-12-01', sex: '男' });
    expect(put.statusCode).toBe(204);
    const got = (await api('GET', `/api/accountsStaff/${s.id}`)).json();
    expect(got).toMatchObject({ idCard: newId, born: '1992-12-24', sex: '女', contractWarn: '2099-12-01', contractWarnState: '未提醒' });
    const clash = await api('PUT', '/api/accountsStaff', { ...got, idCard: made[0].idCard });
    expect(clash.statusCode).toBe(409);
    const missing = await api('PUT', '/api/accountsStaff', { ...got, staffName: '' });
    expect(missing.json().fieldErrors.staffName).toBe('请输入员工姓名');
    expect((await api('PUT', '/api/accountsStaff', { ...got, id: 999999 })).statusCode).toBe(404);
  });

  it('deletes one (200) or several (200) and answers 404 afterwards', async () => {
    const a = await createStaff(t.app, token, companyB, { idCard: idCard('1970-01-01', 301) });
    const b = await createStaff(t.app, token, companyB, { idCard: idCard('1970-01-01', 303) });
    const c = await createStaff(t.app, token, companyB, { idCard: idCard('1970-01-01', 305) });
    expect((await api('DELETE', `/api/accountsStaff/${a.id}`)).statusCode).toBe(200);
    expect((await api('DELETE', '/api/accountsStaff', [b.id, c.id])).statusCode).toBe(200);
    expect((await api('GET', `/api/accountsStaff/${b.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/accountsStaff/${a.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', '/api/accountsStaff', [])).statusCode).toBe(400);
  });
});
