import { describe, expect, it } from 'vitest';
import { luhnValid } from '@app/shared/payout/bankLayout';
import { multipart, scopedUser, sheetRows, workbook } from './dispatch-fixtures.ts';
import { bearer, type TestApp } from './helpers.ts';
import { type Api, api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';
import { createUser, idOf, tokenFor, userWithCodes } from './system-fixtures.ts';

/**
 * 个税申报 (issue 23 items 4-6) on the test database: the three ITS workbooks (column order exactly as
 * month-close.md §B2, amounts to the fen against the confirmed salary rows), the reconciliation of a hand-made ITS
 * result with one planted difference and one person on each side only, the payout gate (409, override recorded,
 * allowed once acknowledged), 增减员 against an ITS person list, and the permission refusals.
 */

// month-close.md §B2, written out here (not imported) so that a change of the server's list fails this test
const WAGE = [
  '工号', '*姓名', '*证件类型', '*证件号码', '本期收入', '本期免税收入', '基本养老保险费', '基本医疗保险费', '失业保险费', '住房公积金', '累计子女教育',
  '累计继续教育', '累计住房贷款利息', '累计住房租金', '累计赡养老人', '累计3岁以下婴幼儿照护', '累计个人养老金', '企业(职业)年金', '商业健康保险',
  '税延养老保险', '其他', '准予扣除的捐赠额', '减免税额', '备注',
];
const BONUS = ['工号', '*姓名', '*证件类型', '*证件号码', '*全年一次性奖金额', '免税收入', '其他', '准予扣除的捐赠额', '减免税额', '协定减免', '备注'];
const PERSON = [
  '工号', '*姓名', '*证件类型', '*证件号码', '*国籍(地区)', '*性别', '*出生日期', '是否高级专家', '*任职受雇从业类型', '其他情况说明', '入职年度就业情形', '手机号码',
  '任职受雇从业日期', '离职日期', '是否离职后补发工资', '实际补发工资的月份', '是否残疾', '是否烈属', '是否孤老', '残疾证件类型', '残疾证号', '烈属证号',
  '是否扣除减除费用', '个人投资额', '个人投资比例(%)', '备注', '中文名', '涉税事由', '出生国家(地区)', '首次入境时间', '预计离境时间', '其他证件类型', '其他证件号码',
  '户籍所在地（省）', '户籍所在地（市）', '户籍所在地（区县）', '户籍所在地（详细地址）', '经常居住地（省）', '经常居住地（市）', '经常居住地（区县）', '经常居住地（详细地址）',
  '联系地址（省）', '联系地址（市）', '联系地址（区县）', '联系地址（详细地址）', '电子邮箱', '学历', '开户银行', '银行账号', '开户行省份', '职务',
];

const AGENT = '北京众信劳务派遣有限公司';
const MONTH = '2026-03';
const fen = (yuan: number) => Math.round(yuan * 100);
const text = (f: number) => `${Math.trunc(f / 100)}.${String(Math.abs(f) % 100).padStart(2, '0')}`;
function card(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(prefix + d)) return prefix + d;
  throw new Error('unreachable');
}

let t: TestApp;
let call: Api;
let token: string;
withAdminApp((s) => {
  t = s.t;
  call = s.call;
  token = s.token;
});

const q = (o: Record<string, string>) => new URLSearchParams(o).toString();
async function download(url: string, as = token) {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(as) });
  return { status: res.statusCode, rows: res.statusCode === 200 ? sheetRows(res.rawPayload) : [], body: res.statusCode === 200 ? null : res.json(), headers: res.headers };
}
async function upload(url: string, file: Buffer, name = 'its.xlsx', as = token, language?: string) {
  const m = multipart(file, name);
  const languageHeader = language ? { 'accept-language': language } : {};
  const res = await t.app.inject({ method: 'POST', url, headers: { ...m.headers, ...bearer(as), ...languageHeader }, payload: m.payload });
  return { status: res.statusCode, body: res.json() };
}

/** Two client companies of the agent: 李四 works at both; 赵六 left in February, 钱七 long ago. */
async function agentWithMonth(agent = AGENT) {
  const cards = ['622202020011223340', '621700001000123450', '621483000100000010'].map((p) => card(p.slice(0, 17)));
  const zhang = vectorStaff(9000, { staffName: '张三', bankcardNumber: cards[0] });
  const li = vectorStaff(30000, { staffName: '李四', bankcardNumber: cards[1] });
  const wang = vectorStaff(6000, { staffName: '王五', bankcardNumber: cards[2] });
  const zhao = vectorStaff(7000, { staffName: '赵六', jobState: '离职', leaveDate: '2026-02-15', leaveReason: '个人原因' });
  const qian = vectorStaff(5000, { staffName: '钱七', jobState: '离职', leaveDate: '2025-06-30', leaveReason: '个人原因' });
  const c1 = await companyWithStaff(t.app, token, [zhang, li, wang, zhao, qian], { dispatchCompany: agent });
  const c2 = await companyWithStaff(t.app, token, [vectorStaff(3000, { staffName: '李四', idCard: li.idCard, bankcardNumber: cards[1] })], { dispatchCompany: agent });
  return { c1: c1.company, c2: c2.company, people: { zhang, li, wang, zhao, qian } };
}

describe('IIT declaration, reconciliation and 增减员', () => {
  it('exports the three ITS workbooks from confirmed months only, columns in ITS order, amounts to the fen', async () => {
    const { c1, c2, people } = await agentWithMonth();
    // 张三's bonus is taxed on its own (the bonus sheet), 王五's merged into March's wages (not on the bonus sheet)
    const rows1 = await runMonth(call, c1.id, MONTH, (rows) =>
      rows.flatMap((r) => (r.staffName === '张三' ? [{ id: r.id, bonus: 36000, bonusMerged: false }] : r.staffName === '王五' ? [{ id: r.id, bonus: 5000, bonusMerged: true }] : [])) as never,
    );
    // the second company is calculated but not confirmed: no declaration yet
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: c2.id, month: MONTH })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: c2.id, month: MONTH })).status).toBe(200);
    const early = await download(`/api/export/iit/wage?${q({ dispatchCompany: AGENT, month: MONTH })}`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('IIT_MONTH_NOT_CONFIRMED');
    expect(early.body.message).toContain(c2.companyName);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: c2.id, month: MONTH, companyName: 'x', acknowledgeWarnings: true })).status).toBe(200);
    const rows2 = await salaryRows(call, c2.id, MONTH);
    const all = [...rows1, ...rows2];
    expect(all.map((r) => r.staffName).sort()).toEqual(['张三', '李四', '李四', '王五']);

    const wage = await download(`/api/export/iit/wage?${q({ dispatchCompany: AGENT, month: MONTH })}`);
    expect(wage.status).toBe(200);
    expect(String(wage.headers['content-disposition'])).toContain(encodeURIComponent('正常工资薪金所得'));
    expect(wage.rows[0]).toEqual(WAGE);
    expect(wage.rows).toHaveLength(4); // 张三, 李四 (two companies, one row), 王五
    const col = (h: string) => WAGE.indexOf(h);
    for (const who of ['张三', '李四', '王五']) {
      const p = Object.values(people).find((x) => x.staffName === who);
      const line = wage.rows.find((r) => r[col('*姓名')] === who) as string[];
      const mine = all.filter((r) => r.idCard === p?.idCard);
      const sum = (k: string) => text(mine.reduce((s, r) => s + fen(r[k] ?? 0), 0));
      expect(line[col('*证件类型')]).toBe('居民身份证');
      expect(line[col('*证件号码')]).toBe(p?.idCard);
      expect(line[col('本期收入')]).toBe(sum('gross'));
      expect(line[col('基本养老保险费')]).toBe(sum('yanglao'));
      expect(line[col('基本医疗保险费')]).toBe(sum('yiliao'));
      expect(line[col('失业保险费')]).toBe(sum('shiye'));
      expect(line[col('住房公积金')]).toBe(sum('gongjijin'));
      // 专项附加扣除 columns stay empty for ITS's 预填
      expect(line[col('累计子女教育')]).toBeNull();
    }
    const li = wage.rows.find((r) => r[col('*姓名')] === '李四') as string[];
    // 30,000 + 3,000 of wages at two client companies: one row, 2 decimals, no separators, as text
    expect(li[col('本期收入')]).toBe('33000.00');
    expect(wage.rows.some((r) => r[col('*姓名')] === '赵六')).toBe(false);

    const bonus = await download(`/api/export/iit/bonus?${q({ dispatchCompany: AGENT, year: '2026' })}`);
    expect(bonus.status).toBe(200);
    expect(bonus.rows[0]).toEqual(BONUS);
    expect(bonus.rows.slice(1)).toEqual([[null, '张三', '居民身份证', people.zhang.idCard, '36000.00', null, null, null, null, null, null]]);

    const persons = await download(`/api/export/iit/persons?${q({ dispatchCompany: AGENT, month: MONTH })}`);
    expect(persons.status).toBe(200);
    expect(persons.rows[0]).toEqual(PERSON);
    expect(PERSON).toHaveLength(51);
    const pc = (h: string) => PERSON.indexOf(h);
    expect(persons.rows.slice(1).map((r) => r[pc('*姓名')])).toEqual(['张三', '李四', '王五', '赵六']);
    const zhao = persons.rows.find((r) => r[pc('*姓名')] === '赵六') as string[];
    expect(zhao[pc('离职日期')]).toBe('2026-02-15');
    expect(zhao[pc('备注')]).toBe('人员状态：非正常');
    const zhang = persons.rows.find((r) => r[pc('*姓名')] === '张三') as string[];
    expect([zhang[pc('*证件号码')], zhang[pc('*出生日期')], zhang[pc('*性别')], zhang[pc('*任职受雇从业类型')], zhang[pc('任职受雇从业日期')], zhang[pc('离职日期')]]).toEqual([
      people.zhang.idCard,
      '1988-05-17',
      people.zhang.idCard[16] && Number(people.zhang.idCard[16]) % 2 ? '男' : '女',
      '雇员',
      '2024-01-02',
      null,
    ]);

    // bad input: unknown agent, a client's name, a malformed month
    expect((await download(`/api/export/iit/wage?${q({ dispatchCompany: c1.companyName, month: MONTH })}`)).body.code).toBe('IIT_AGENT_UNKNOWN');
    expect((await download(`/api/export/iit/wage?${q({ dispatchCompany: AGENT, month: '2026-13' })}`)).status).toBe(400);
    expect((await download(`/api/export/iit/bonus?${q({ dispatchCompany: AGENT, year: '26' })}`)).status).toBe(400);
    expect((await download(`/api/export/iit/wage?${q({ dispatchCompany: AGENT, month: '2026-05' })}`)).body.code).toBe('IIT_NOTHING_CONFIRMED');
  });

  it('reconciles a hand-made ITS result, holds the payout export until acknowledged or overridden, and lists 增减员', async () => {
    const month = '2026-04';
    // an agent of its own, so that 增减员 sees only this test's staff
    const AGENT = '天津测试人力资源有限公司';
    const dict = await t.app.ctx.db.selectFrom('sys_dict').select('id').where('name', '=', 'dispatch_company').executeTakeFirstOrThrow();
    expect((await call('POST', '/api/dictDetail', { dictId: dict.id, label: AGENT, value: '0.004', sort: 9 })).status).toBe(201);
    const { c1, c2, people } = await agentWithMonth(AGENT);
    const rows1 = await runMonth(call, c1.id, month);
    const rows2 = await runMonth(call, c2.id, month);
    const taxOf = (idCard: string) => [...rows1, ...rows2].filter((r) => r.idCard === idCard).reduce((s, r) => s + fen(r.tax), 0);
    const liTax = taxOf(people.li.idCard);
    expect(liTax).toBeGreaterThan(0);

    // ITS's result: a title row, columns ITS inserted (序号, 累计个人养老金), full-width brackets; 李四 off by one fen
    // (the planted difference), 王五 missing (ours only), 孙八 unknown to us (ITS only)
    const sun = '110101198001010011';
    const head = ['序号', '工号', '姓名', '证件类型', '证件号码', '本期收入', '累计个人养老金', '累计应纳税额', '累计应补（退）税额', '备注'];
    const its = workbook(
      [
        ['正常工资薪金所得 计算结果'],
        head,
        [1, '', '张三', '居民身份证', people.zhang.idCard, 9000, 0, 0, text(taxOf(people.zhang.idCard)), ''],
        [2, '', '李四', '居民身份证', people.li.idCard, 15000, 0, 0, (liTax + 1) / 100, ''],
        [3, '', '孙八', '居民身份证', sun, 5000, 0, 0, '12.30', ''],
      ],
      'xls',
    );
    const url = `/api/import/iitResult?${q({ dispatchCompany: AGENT, month })}`;
    const imported = await upload(url, its, 'its.xls');
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ dispatchCompany: AGENT, month, oursCount: 3, itsCount: 3, diffCount: 3, openCount: 3 });
    const rid = imported.body.id;
    const diffs = (await call('GET', `/api/iit/reconcile/${rid}/diffs?size=10`)).body;
    expect(diffs.totalElements).toBe(3);
    expect(diffs.content.map((d: any) => [d.kind, d.staffName, d.ours === null ? null : fen(d.ours), d.its === null ? null : fen(d.its), d.difference])).toEqual([
      ['differs', '李四', liTax, liTax + 1, 0.01],
      ['ours', '王五', taxOf(people.wang.idCard), null, null],
      ['its', '孙八', null, 1230, null],
    ]);
    expect((await call('GET', `/api/iit/reconcile?${q({ dispatchCompany: AGENT, month })}`)).body.reconcile.openCount).toBe(3);

    // bad uploads: not a workbook, no header
    expect((await upload(url, Buffer.from('姓名,证件号码\n'), 'x.csv')).body.code).toBe('IIT_FILE_UNREADABLE');
    const notWorkbook = await upload(url, Buffer.from('姓名,证件号码\n'), 'x.csv', token, 'en');
    expect(notWorkbook.body.message).toBe('The ITS file cannot be read: Only xls/xlsx files can be uploaded!');
    // a bad row's reason is a code: Chinese as before, English apart from the file's own column name and cell
    const badAmount = workbook([head, [1, '', '张三', '居民身份证', people.zhang.idCard, 9000, 0, 0, '十元', '']]);
    expect((await upload(url, badAmount)).body.message).toBe('税局文件第2行：累计应补(退)税额不是有效的金额：十元');
    expect((await upload(url, badAmount, 'its.xlsx', token, 'en')).body.message).toBe('Row 2 of the ITS file: 累计应补(退)税额 is not a valid amount: 十元');
    const twice = workbook([head, [1, '', '张三', '居民身份证', people.zhang.idCard, 9000, 0, 0, 0, ''], [2, '', '张三', '居民身份证', people.zhang.idCard, 9000, 0, 0, 0, '']]);
    expect((await upload(url, twice)).body.message).toBe('税局文件第3行：证件号码与第2行重复');
    expect((await upload(url, twice, 'its.xlsx', token, 'en')).body.message).toBe('Row 3 of the ITS file: the ID number repeats row 2');
    const noHeader = await upload(url, workbook([['姓名', '身份证'], ['张三', people.zhang.idCard]]));
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.code).toBe('IIT_FILE_HEADERS');
    expect((await call('GET', `/api/iit/reconcile?${q({ dispatchCompany: AGENT, month })}`)).body.reconcile.id).toBe(rid);

    // the payout gate: both companies' batches are held while differences are open
    const csv = (await call('GET', '/api/bankTemplate?size=50')).body.content.find((x: any) => x.templateName === '通用 CSV').id;
    const b1 = (await call('POST', '/api/payout/generate', { companyId: c1.id, month, templateId: csv })).body.batch;
    const b2 = (await call('POST', '/api/payout/generate', { companyId: c2.id, month, templateId: csv })).body.batch;
    expect(b1 && b2).toBeTruthy();
    const held = await t.app.inject({ method: 'GET', url: `/api/export/payout/${b1.id}`, headers: bearer(token) });
    expect(held.statusCode).toBe(409);
    expect(held.json().code).toBe('IIT_RECONCILE_OPEN');
    expect(held.json().message).toContain('3条差异未确认');
    const noReason = await t.app.inject({ method: 'GET', url: `/api/export/payout/${b1.id}?iitOverride=true`, headers: bearer(token) });
    expect(noReason.json().code).toBe('IIT_OVERRIDE_REASON');
    const forced = await t.app.inject({ method: 'GET', url: `/api/export/payout/${b1.id}?${q({ iitOverride: 'true', iitOverrideReason: '税局系统维护，先发工资' })}`, headers: bearer(token) });
    expect(forced.statusCode).toBe(200);
    const override = await t.app.ctx.db.selectFrom('accounts_iit_override').selectAll().where('batch_id', '=', b1.id).execute();
    expect(override.map((o) => [o.dispatch_company, o.month, Number(o.reconcile_id), Number(o.open_count), o.reason, o.username])).toEqual([[AGENT, month, rid, 3, '税局系统维护，先发工资', 'admin']]);
    expect((await call('GET', `/api/payout/${b1.id}`)).body.iitOverride).toMatchObject({ reason: '税局系统维护，先发工资', username: 'admin', openCount: 3 });
    const logged = await t.app.ctx.db.selectFrom('sys_log').select(['description', 'params']).where('description', '=', '导出银行代发文件').where('log_type', '=', 'INFO').execute();
    expect(logged.some((l) => String(l.params).includes('iitOverride') && String(l.params).includes('税局系统维护'))).toBe(true);

    // acknowledging: a reason is required; once all three are acknowledged the other batch exports without override
    const first = diffs.content[0];
    expect((await call('PUT', `/api/iit/diff/${first.id}/ack`, { reason: '  ' })).status).toBe(400);
    for (const d of diffs.content) {
      const r = await call('PUT', `/api/iit/diff/${d.id}/ack`, { reason: `核对：${d.staffName}` });
      expect(r.status).toBe(200);
      expect(r.body.diff).toMatchObject({ ackReason: `核对：${d.staffName}`, ackBy: 'admin' });
    }
    expect((await call('GET', `/api/iit/reconcile/${rid}/diffs?open=true`)).body.totalElements).toBe(0);
    const allowed = await t.app.inject({ method: 'GET', url: `/api/export/payout/${b2.id}`, headers: bearer(token) });
    expect(allowed.statusCode).toBe(200);
    expect(await t.app.ctx.db.selectFrom('accounts_iit_override').selectAll().where('batch_id', '=', b2.id).execute()).toEqual([]);
    expect((await call('GET', `/api/payout/${b2.id}`)).body.iitOverride).toBeNull();

    // the same file again keeps the acknowledgements; a new figure for 李四 is a new open difference
    expect((await upload(url, its, 'its.xls')).body.openCount).toBe(0);
    const changed = workbook([head, [1, '', '张三', '居民身份证', people.zhang.idCard, 9000, 0, 0, text(taxOf(people.zhang.idCard)), ''], [2, '', '李四', '居民身份证', people.li.idCard, 15000, 0, 0, text(liTax + 2), '']]);
    const again = await upload(url, changed);
    expect(again.body).toMatchObject({ diffCount: 2, openCount: 1 });
    expect((await call('PUT', `/api/iit/diff/${first.id}/ack`, { reason: '旧结果' })).body.code).toBe('IIT_DIFF_SUPERSEDED');

    // 增减员: ITS knows 张三, 赵六 (left in February, no 离职日期 there) and 孙八; 李四 and 王五 are new to it
    const personList = workbook([
      ['工号', '*姓名', '*证件类型', '*证件号码', '人员状态', '任职受雇从业日期', '离职日期'],
      ['', '张三', '居民身份证', people.zhang.idCard, '正常', '2024-01-02', ''],
      ['', '赵六', '居民身份证', people.zhao.idCard, '正常', '2024-01-02', ''],
      ['', '孙八', '居民身份证', sun, '正常', '2023-05-01', ''],
    ]);
    const persons = await upload(`/api/import/iitPersons?${q({ dispatchCompany: AGENT, month })}`, personList);
    expect(persons.status).toBe(200);
    expect(persons.body).toMatchObject({ imported: { count: 3 }, addCount: 2, leaveCount: 1 });
    expect((await call('GET', `/api/iit/changes?${q({ dispatchCompany: AGENT, month })}`)).body).toMatchObject({ addCount: 2, leaveCount: 1 });
    const changes = await download(`/api/export/iit/changes?${q({ dispatchCompany: AGENT, month })}`);
    expect(changes.status).toBe(200);
    expect(changes.rows[0]).toEqual([...PERSON, '变动类型', '核对说明']);
    const pc = (h: string) => PERSON.indexOf(h);
    expect(changes.rows.slice(1).map((r) => [r[pc('*姓名')], r[51], r[pc('离职日期')]])).toEqual([
      ['李四', '增员', null],
      ['王五', '增员', null],
      ['赵六', '离职待报', '2026-02-15'],
    ]);
    expect((await download(`/api/export/iit/changes?${q({ dispatchCompany: AGENT, month: '2026-06' })}`)).body.code).toBe('IIT_NO_PERSON_LIST');
  });

  it('refuses an ordinary employee, a user without the codes and a user who sees only part of the agent', async () => {
    const { c1 } = await agentWithMonth();
    const month = '2026-05';
    await runMonth(call, c1.id, month);
    const roleId = await idOf(t, 'sys_role', '普通员工');
    const jobId = await idOf(t, 'sys_job', '普通员工');
    const employee = await tokenFor(t, await createUser(t, { username: `emp_iit_${Date.now()}`, roleIds: [roleId], jobId }));
    const nobody = (await userWithCodes(t, ['ACCOUNTSSALARY_ALL', 'PAYOUT_ALL'])).token;
    const reader = (await userWithCodes(t, ['IIT_SELECT'])).token;
    const am = q({ dispatchCompany: AGENT, month });
    const file = workbook([['姓名', '证件号码', '累计应补(退)税额'], ['张三', '110101198001010011', '1.00']]);
    for (const who of [employee, nobody]) {
      const w = api(t.app, who);
      expect((await download(`/api/export/iit/wage?${am}`, who)).status).toBe(403);
      expect((await download(`/api/export/iit/bonus?${q({ dispatchCompany: AGENT, year: '2026' })}`, who)).status).toBe(403);
      expect((await download(`/api/export/iit/persons?${am}`, who)).status).toBe(403);
      expect((await download(`/api/export/iit/changes?${am}`, who)).status).toBe(403);
      expect((await upload(`/api/import/iitResult?${am}`, file, 'x.xlsx', who)).status).toBe(403);
      expect((await upload(`/api/import/iitPersons?${am}`, file, 'x.xlsx', who)).status).toBe(403);
      expect((await w('GET', `/api/iit/reconcile?${am}`)).status).toBe(403);
      expect((await w('GET', '/api/iit/reconcile/1/diffs')).status).toBe(403);
      expect((await w('GET', `/api/iit/changes?${am}`)).status).toBe(403);
      expect((await w('PUT', '/api/iit/diff/1/ack', { reason: 'x' })).status).toBe(403);
    }
    // IIT_SELECT reads the result but cannot export, import or acknowledge
    const r = api(t.app, reader);
    expect((await r('GET', `/api/iit/reconcile?${am}`)).status).toBe(200);
    expect((await download(`/api/export/iit/wage?${am}`, reader)).status).toBe(403);
    expect((await upload(`/api/import/iitResult?${am}`, file, 'x.xlsx', reader)).status).toBe(403);
    expect((await r('PUT', '/api/iit/diff/1/ack', { reason: 'x' })).status).toBe(403);
    // a user whose departments hold none of the agent's companies may not declare for it
    const partial = await scopedUser(t.app, { username: `iitdept${Date.now().toString(36)}`, codes: ['IIT_ALL'], dataScope: '本级' });
    const refused = await download(`/api/export/iit/wage?${am}`, partial.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('IIT_AGENT_NOT_VISIBLE');
  });
});
