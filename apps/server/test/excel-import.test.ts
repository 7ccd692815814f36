import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { badCheckDigit, createCompany, idCard, multipart, scopedUser, sheetRows, uniq, workbook, staffSheetRow } from './dispatch-fixtures.ts';

const session = adminApp();

const HEADERS = ['所属单位', '姓名', '身份证号', '户籍类型', '手机号', '入职日期', '基本工资', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间'];

const staffRow = (company: string, name: string, id: string, overrides: Record<string, unknown> = {}) => staffSheetRow(HEADERS, company, name, id, overrides);

async function upload(resource: string, file: Buffer, opts: { name?: string; query?: string; tk?: string; fields?: Record<string, string>; fieldName?: string } = {}) {
  const mp = multipart(file, opts.name ?? 'staff.xlsx', opts.fields, opts.fieldName);
  return session.app.inject({ method: 'POST', url: `/api/import/${resource}${opts.query ?? ''}`, headers: { ...bearer(opts.tk ?? session.token), ...mp.headers }, payload: mp.payload });
}

const staffOf = (companyId: number) =>
  session.app.ctx.db.selectFrom('accounts_staff').selectAll().where('company_id', '=', companyId).orderBy('id').execute();

describe('staff import', () => {
  it('imports an .xlsx with Chinese headers and derives the rest; re-import updates by company + ID card', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('导入单位'), gjjBase: 9000, yilaoBase: 7500, dispatchCompany: '北京众信劳务派遣有限公司' });
    const ids = [idCard('1990-01-01', 1), idCard('1991-02-02', 2), idCard('1992-03-03', 3)];
    const file = workbook([
      HEADERS,
      staffRow(c.companyName, '甲', ids[0]),
      staffRow(c.companyName, '乙', ids[1], { 户籍类型: '外城', 基本工资: '7,000.50' }),
      staffRow(c.companyName, '丙', ids[2].toLowerCase()),
    ]);
    const res = await upload('accountsStaff', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ total: 3, inserted: 3, updated: 0, failed: 0, errors: [] });
    const rows = await staffOf(c.id);
    expect(rows.map((r) => r.staff_name)).toEqual(['甲', '乙', '丙']);
    expect(rows[0]).toMatchObject({ company_name: c.companyName, census_type: 'bennong', sex: '男', born: '1990-01-01', job_state: '在职', contract_warn: '2026-01-29', contract_warn_state: '未提醒' });
    expect(Number(rows[0].gjj_base)).toBe(900000); // copied from the company, in fen
    expect(Number(rows[0].yiliao_base)).toBe(750000);
    expect(Number(rows[0].yiliao_base_self)).toBe(716200);
    expect(Number(rows[0].gongshang_ratio_company)).toBeCloseTo(0.002, 9);
    expect(Number(rows[0].yanglao_ratio_self)).toBeCloseTo(0.08, 9); // from the rate dictionary
    expect(Number(rows[1].salary)).toBe(700050);
    expect(rows[1].census_type).toBe('waicheng');
    expect(rows[2].id_card).toBe(ids[2].toUpperCase());

    const again = workbook([HEADERS, staffRow(c.companyName, '甲改', ids[0], { 基本工资: 8000 }), staffRow(c.companyName, '丁', idCard('1993-04-04', 4))]);
    const res2 = await upload('accountsStaff', again);
    expect(res2.json()).toMatchObject({ total: 2, inserted: 1, updated: 1, failed: 0 });
    const after = await staffOf(c.id);
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({ id: rows[0].id, staff_name: '甲改' });
    expect(Number(after[0].salary)).toBe(800000);
    expect(Number(after[0].gjj_base)).toBe(900000);
  });

  it('stores awkward text exactly (quotes, braces, commas, backslashes, NULL-like words, markup) on every database', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('文本单位') });
    const tricky = ['{"a,b"}\\ \'x\' NULL', 'null', '  前后空格保留在中间  ', 'emoji 😀 与 <b>&amp;</b>'];
    const rows = tricky.map((text, i) => [...staffRow(c.companyName, `文本${i}`, idCard('1977-07-07', 41 + i * 2)), text]);
    const res = await upload('accountsStaff', workbook([[...HEADERS, '住址'], ...rows]));
    expect(res.json(), res.body).toMatchObject({ inserted: 4, failed: 0 });
    const stored = (await staffOf(c.id)).map((r) => r.address);
    expect(stored).toEqual(tricky.map((x) => x.trim()));
  });

  it('reads .xls (BIFF) files the same way, and takes the company from the query when the column is absent', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('XLS单位') });
    const headers = HEADERS.slice(1);
    const file = workbook([headers, staffRow('', '老格式', idCard('1970-07-07', 7)).slice(1)], 'xls');
    const res = await upload('accountsStaff', file, { name: 'staff.xls', query: `?companyId=${c.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ inserted: 1, failed: 0 });
    expect((await staffOf(c.id))[0]).toMatchObject({ staff_name: '老格式', born: '1970-07-07' });
    const viaField = await upload('accountsStaff', workbook([headers, staffRow('', '表单字段', idCard('1970-07-07', 9)).slice(1)]), { fields: { companyId: String(c.id) } });
    expect(viaField.json()).toMatchObject({ inserted: 1 });
    const foreign = await upload('accountsStaff', file, { query: '?companyId=999999' });
    expect(foreign.statusCode).toBe(404);
  });

  it('accepts dates as text in several forms or as Excel serials, and formula cells by their cached value', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('日期单位') });
    const serial = 45352; // 2024-03-01
    const file = workbook([
      HEADERS,
      staffRow(c.companyName, '日期一', idCard('1990-05-05', 11), { 入职日期: '2024/3/1', 合同开始: '2024年3月1日', 合同结束: '20260228', 派遣日期: serial }),
      staffRow(c.companyName, '公式', idCard('1990-05-05', 13), { 基本工资: { t: 'n', v: 6000.1, f: '3000.05*2' }, 姓名: { t: 's', v: '公式人', f: '"公式"&"人"' }, 入职日期: { t: 'n', v: serial, f: 'DATE(2024,3,1)' } }),
    ]);
    const res = await upload('accountsStaff', file);
    expect(res.json(), res.body).toMatchObject({ inserted: 2, failed: 0 });
    const rows = await staffOf(c.id);
    expect(rows[0]).toMatchObject({ induction_date: '2024-03-01', contract_start: '2024-03-01', contract_end: '2026-02-28', dispatch_date: '2024-03-01' });
    expect(rows[1]).toMatchObject({ staff_name: '公式人', induction_date: '2024-03-01' });
    expect(Number(rows[1].salary)).toBe(600010);
  });

  it('reports bad rows with row number, column and reason, saves the good ones and offers an error sheet', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('错误单位') });
    const dup = idCard('1995-09-09', 21);
    const file = workbook([
      HEADERS,
      staffRow(c.companyName, '好人', dup),
      staffRow(c.companyName, '校验位错', badCheckDigit(idCard('1995-09-09', 23))),
      staffRow(c.companyName, '字典错', idCard('1995-09-09', 25), { 户籍类型: '火星户口' }),
      staffRow(c.companyName, '重复', dup),
      [],
      staffRow(c.companyName, '', idCard('1995-09-09', 27), { 合同开始: '2027-01-01' }),
      staffRow('不存在的单位', '无单位', idCard('1995-09-09', 29)),
      staffRow(c.companyName, '日期错', idCard('1995-09-09', 31), { 入职日期: '明天' }),
    ]);
    const res = await upload('accountsStaff', file);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 7, inserted: 1, updated: 0, failed: 6 });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { row: 3, column: '身份证号', message: '身份证号码不正确' },
        { row: 4, column: '户籍类型', message: expect.stringContaining('"火星户口"不是可选值') },
        { row: 5, column: '身份证号', message: '与第2行重复（所属单位+身份证号相同）' },
        { row: 7, column: '姓名', message: '请输入员工姓名' },
        { row: 8, column: '所属单位', message: expect.stringMatching(/^所属单位"不存在的单位"不存在或无权访问（.*由此推导，更正该列后自动填写）$/) },
        { row: 9, column: '入职日期', message: '入职日期格式应为YYYY-MM-DD' },
      ]),
    );
    const startAfterEnd = await upload('accountsStaff', workbook([HEADERS, staffRow(c.companyName, '倒序', idCard('1995-09-09', 33), { 合同开始: '2027-01-01' })]));
    expect(startAfterEnd.json().errors).toEqual([{ row: 2, column: '合同开始', message: '合同开始日期不能晚于结束日期' }]);
    expect((await staffOf(c.id)).map((r) => r.staff_name)).toEqual(['好人']);

    expect(body.errorFileId).toMatch(/^[0-9a-f-]{36}$/);
    const dl = await session.app.inject({ method: 'GET', url: `/api/import/errors/${body.errorFileId}`, headers: bearer(session.token) });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toContain("filename*=UTF-8''");
    const sheet = sheetRows(dl.rawPayload);
    expect(sheet[0]).toEqual(['行号', ...HEADERS, '错误原因']);
    expect(sheet).toHaveLength(7);
    expect(sheet[1][0]).toBe(3);
    expect(sheet[1][3]).toBe(badCheckDigit(idCard('1995-09-09', 23)));
    expect(String(sheet[1][HEADERS.length + 1])).toBe('身份证号：身份证号码不正确');
    const other = await scopedUser(session.app, { username: uniq('other'), codes: ['ACCOUNTSSTAFF_ALL'], dataScope: '全部' });
    expect((await session.app.inject({ method: 'GET', url: `/api/import/errors/${body.errorFileId}`, headers: bearer(other.token) })).statusCode).toBe(403);
    expect((await session.app.inject({ method: 'GET', url: `/api/import/errors/${crypto.randomUUID()}`, headers: bearer(session.token) })).statusCode).toBe(404);
  });
});

describe('staff import rows checked in one round (U9, U20)', () => {
  it('reports every problem of a row together: field errors and the contract dates, and a short mobile', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('一次报错') });
    const row = staffRow(c.companyName, '多错', badCheckDigit(idCard('1988-08-08', 11)), { 户籍类型: '火星户口', 入职日期: '明天', 基本工资: 'abc', 手机号: '1391111', 合同开始: '2027-01-01' });
    const res = await upload('accountsStaff', workbook([HEADERS, row, staffRow(c.companyName, '好人', idCard('1988-08-08', 13))]));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, inserted: 1, failed: 1 });
    const columns = body.errors.filter((e: { row: number }) => e.row === 2).map((e: { column: string }) => e.column);
    expect(columns).toEqual(expect.arrayContaining(['户籍类型', '身份证号', '入职日期', '基本工资', '手机号', '合同开始']));
    expect(body.errors).toContainEqual({ row: 2, column: '合同开始', message: '合同开始日期不能晚于结束日期' });
    expect(body.errors).toContainEqual({ row: 2, column: '手机号', message: '请输入正确的11位手机号码' });
  });

  it('reads ratios as the template says: 8, 8% and 0.08 are all 8 percent', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('比例写法') });
    const header = [...HEADERS, '公积金比例'];
    const spellings: unknown[] = ['8', '8%', '0.08', 8, 0.08];
    const rows = spellings.map((ratio, i) => [...staffRow(c.companyName, `比例${i}`, idCard('1979-09-09', 51 + i * 2)), ratio]);
    const res = await upload('accountsStaff', workbook([header, ...rows, [...staffRow(c.companyName, '超出', idCard('1979-09-09', 71)), '120%']]));
    expect(res.json(), res.body).toMatchObject({ inserted: spellings.length, failed: 1 });
    const stored = (await staffOf(c.id)).map((r) => Number(r.gjj_ratio));
    expect(stored).toEqual(spellings.map(() => 0.08));
  });
});

describe('file-level rejections import nothing', () => {
  const count = async () => Number((await session.app.ctx.db.selectFrom('accounts_staff').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses files that are not Excel, whatever their name', async () => {
    const before = await count();
    for (const [data, name] of [
      [Buffer.from('姓名,身份证号\n张三,1\n'), 'staff.xlsx'],
      [Buffer.from('%PDF-1.4 fake'), 'staff.xls'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'staff.xlsx'],
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)]), 'broken.xlsx'],
    ] as const) {
      const res = await upload('accountsStaff', data, { name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toBe('上传文件只能是 xls/xlsx 格式!');
    }
    // a real ZIP that is not a workbook (e.g. a renamed archive)
    const JSZip = (await import('jszip')).default;
    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    const res = await upload('accountsStaff', await zip.generateAsync({ type: 'nodebuffer' }), { name: 'staff.xlsx' });
    expect(res.json().message).toBe('上传文件只能是 xls/xlsx 格式!');
    expect(await count()).toBe(before);
  });

  it('refuses a damaged workbook before importing any of its rows', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('损坏单位') });
    const rows = [HEADERS];
    for (let i = 0; i < 1200; i++) rows.push(staffRow(c.companyName, `损坏${i}`, idCard('1960-01-01', 0, String(110101 + i))) as string[]);
    const buf = Buffer.from(workbook(rows));
    const { readZipDirectory } = await import('../src/core/excel/zip.ts');
    const entry = readZipDirectory(buf).get('xl/worksheets/sheet1.xml')!;
    const dataStart = entry.localHeaderOffset + 30 + buf.readUInt16LE(entry.localHeaderOffset + 26) + buf.readUInt16LE(entry.localHeaderOffset + 28);
    const middle = dataStart + Math.floor(entry.compressedSize * 0.7);
    for (let i = 0; i < 16; i++) buf[middle + i] ^= 0x5a;
    const res = await upload('accountsStaff', buf);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('文件已损坏，无法读取');
    expect(await staffOf(c.id)).toHaveLength(0);
  });

  it('refuses an empty sheet, a header without rows and a file missing a required column', async () => {
    const before = await count();
    const empty = await upload('accountsStaff', workbook([]));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('文件中没有数据');
    expect((await upload('accountsStaff', workbook([HEADERS]))).json().message).toBe('文件中没有数据');
    const c = await createCompany(session.app, session.token);
    const noId = HEADERS.filter((h) => h !== '身份证号' && h !== '手机号');
    const res = await upload('accountsStaff', workbook([noId, staffRow(c.companyName, '缺列', idCard()).filter((_v, i) => HEADERS[i] !== '身份证号' && HEADERS[i] !== '手机号')]));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('缺少必填列：身份证号、手机号');
    const twice = await upload('accountsStaff', workbook([[...HEADERS, '姓名'], [...staffRow(c.companyName, 'x', idCard()), 'y']]));
    expect(twice.json().message).toBe('列"姓名"重复出现');
    expect(await count()).toBe(before);
  });

  it('checks the upload itself: multipart, one file, the field name, 50 MB, the create permission', async () => {
    const notMultipart = await session.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: bearer(session.token), payload: { a: 1 } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().message).toBe('请选择要上传的文件');
    expect((await upload('accountsStaff', workbook([HEADERS]), { fieldName: 'upload' })).statusCode).toBe(400);
    const boundary = '----two';
    const part = (n: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${n}"\r\n\r\nabc\r\n`);
    const two = await session.app.inject({
      method: 'POST',
      url: '/api/import/accountsStaff',
      headers: { ...bearer(session.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([part('a.xlsx'), part('b.xlsx'), Buffer.from(`--${boundary}--\r\n`)]),
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe('一次只能上传一个文件');
    const big = await upload('accountsStaff', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(50 * 1024 * 1024 + 10)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('上传文件大小不能超过 50MB');
    const reader = await scopedUser(session.app, { username: uniq('ro'), codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '全部' });
    expect((await upload('accountsStaff', workbook([HEADERS]), { tk: reader.token })).statusCode).toBe(403);
  });
});

describe('company import', () => {
  const COMPANY_HEADERS = ['单位名称', '服务方式', '服务费类型', '服务费', '残疾人就业保障金', '派遣单位', '公积金基数', '养老保险基数', '医疗保险基数', '失业保险基数', '工伤保险基数', '生育保险基数', '联系人'];
  const companyRow = (name: string, o: Record<string, unknown> = {}) =>
    COMPANY_HEADERS.map(
      (h) =>
        ({
          单位名称: name,
          服务方式: '劳务派遣',
          服务费类型: '按人头',
          服务费: 80,
          残疾人就业保障金: 0,
          派遣单位: '北京华派人力资源有限公司',
          公积金基数: 8000,
          养老保险基数: 7162,
          医疗保险基数: 7162,
          失业保险基数: 7162,
          工伤保险基数: 7162,
          生育保险基数: 7162,
          联系人: '赵',
          ...o,
        })[h],
    );

  it('imports companies keyed by name: new names insert, known names update and rename nothing else', async () => {
    const known = await createCompany(session.app, session.token);
    const fresh = uniq('新单位');
    const res = await upload('accountsCompany', workbook([COMPANY_HEADERS, companyRow(fresh), companyRow(known.companyName, { 联系人: '新联系人', 服务费: '95.5' }), companyRow(uniq('坏'), { 派遣单位: '无此派遣单位' })]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 3, inserted: 1, updated: 1, failed: 1, errors: [{ row: 4, column: '派遣单位', message: expect.stringContaining('派遣单位不存在') }] });
    const updated = (await session.app.inject({ method: 'GET', url: `/api/accountsCompany/${known.id}`, headers: bearer(session.token) })).json();
    expect(updated).toMatchObject({ contact: '新联系人', fee: 95.5, companyName: known.companyName });
    const created = (await session.app.inject({ method: 'GET', url: `/api/accountsCompany?companyName=${encodeURIComponent(fresh)}`, headers: bearer(session.token) })).json();
    expect(created.content[0]).toMatchObject({ gongshangRatioCompany: 0.004, deptId: 1 });
  });
});
