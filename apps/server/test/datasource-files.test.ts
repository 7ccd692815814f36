import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import * as XLSX from '@e965/xlsx';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, multipart, scopedUser, workbook } from './dispatch-fixtures.ts';
import { openDataSource } from '../src/modules/operations/dataSources/read.ts';
import { loadCurrentUser } from '../src/core/auth/currentUser.ts';

/**
 * File data sources end to end through the API: upload (storage plugin), save with the declared encoding,
 * details with fields and a 10-row preview, and the refusals a clerk meets (wrong encoding, no header, a file
 * that is not what its name says, an Excel number that lost ID-card digits, someone else's upload).
 */
let t: TestApp;
let token: string;
let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${n++}`;

beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function upload(file: Buffer, name: string, tok = token) {
  const mp = multipart(file, name);
  return t.app.inject({ method: 'POST', url: '/algorithm/dataOrigin/uploadFile', headers: { ...bearer(tok), ...mp.headers }, payload: mp.payload });
}
const save = (body: Record<string, unknown>, tok = token) => t.app.inject({ method: 'POST', url: '/dataOrigin/save', headers: bearer(tok), payload: body });
const details = (id: number, tok = token) => t.app.inject({ method: 'GET', url: `/dataOrigin/details?id=${id}`, headers: bearer(tok) });

async function fileSource(file: Buffer, name: string, type: 'csv' | 'xls', characterEncoding: string) {
  const up = await upload(file, name);
  expect(up.statusCode, up.body).toBe(200);
  return save({ dataName: uniq('文件源'), type, characterEncoding, url: up.json().path });
}

// 朱镕基's 镕 is in GBK but not in GB2312; 𠀀 (U+20000) and 䶮 exist only in GB18030's four-byte range
const GBK_TEXT = '姓名,身份证号,单位,金额\r\n朱镕基,110101199001011234,"北京某某劳务派遣有限公司,一部",5000.50\r\n李四,11010119900101123X,"含""引号""",\r\n';
const GB18030_TEXT = '姓名,备注\n𠀀䶮,四字节字符\n王五,普通\n';

describe('csv data sources', () => {
  it('decodes a GBK CSV exactly, with fields and the preview', async () => {
    const res = await fileSource(iconv.encode(GBK_TEXT, 'gbk'), '花名册.csv', 'csv', 'GBK');
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json();
    expect(saved.rowCount).toBe(2);
    expect(saved.tableData.map((f: { fieldName: string }) => f.fieldName)).toEqual(['姓名', '身份证号', '单位', '金额']);
    const d = (await details(saved.id)).json();
    expect(d.pvError).toBeUndefined();
    expect(d.pvData).toEqual([
      { 姓名: '朱镕基', 身份证号: '110101199001011234', 单位: '北京某某劳务派遣有限公司,一部', 金额: '5000.50' },
      { 姓名: '李四', 身份证号: '11010119900101123X', 单位: '含"引号"', 金额: null },
    ]);
    // GB2312 and ANSI read as GBK, the superset
    expect((await fileSource(iconv.encode(GBK_TEXT, 'gbk'), 'a.csv', 'csv', 'GB2312')).statusCode).toBe(201);
  });

  it('decodes a GB18030 CSV exactly, four-byte characters included', async () => {
    const res = await fileSource(iconv.encode(GB18030_TEXT, 'gb18030'), 'gb18030.csv', 'csv', 'GB18030');
    expect(res.statusCode, res.body).toBe(201);
    expect((await details(res.json().id)).json().pvData).toEqual([
      { 姓名: '𠀀䶮', 备注: '四字节字符' },
      { 姓名: '王五', 备注: '普通' },
    ]);
  });

  it('refuses a file in another encoding than declared, and a file without a header, with the reason', async () => {
    const utf8AsGbk = await fileSource(Buffer.from(GBK_TEXT, 'utf8'), 'utf8.csv', 'csv', 'GBK');
    expect(utf8AsGbk.statusCode).toBe(400);
    expect(utf8AsGbk.json().message).toBe('文件编码与所选字符编码（GBK）不符：文件是 UTF-8 编码，请选择 UTF-8');
    const gbkAsUtf8 = await fileSource(iconv.encode(GBK_TEXT, 'gbk'), 'gbk.csv', 'csv', 'UTF-8');
    expect(gbkAsUtf8.statusCode).toBe(400);
    expect(gbkAsUtf8.json().message).toContain('文件不是 UTF-8 编码');
    const noHeader = await fileSource(iconv.encode('朱镕基,110101199001011234,5000\r\n李四,11010119900101123X,3000\r\n', 'gbk'), 'nohead.csv', 'csv', 'GBK');
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().message).toBe('文件第一行应为表头（列名）：第1行（表头）第2列“110101199001011234”是数据而不是列名，请在第一行填写列名');
    // in English too
    const en = await t.app.inject({
      method: 'POST',
      url: '/dataOrigin/save',
      headers: { ...bearer(token), 'accept-language': 'en' },
      payload: { dataName: 'x', type: 'csv', characterEncoding: 'GBK' },
    });
    expect(en.json().message).toBe('Please upload the file first (it does not exist or was not uploaded by you)');
  });

  it('refuses an upload that is not a csv/xls/xlsx, or whose bytes are not what the name says', async () => {
    expect((await upload(Buffer.from('a,b\n1,2\n'), 'data.txt')).statusCode).toBe(400);
    const zipAsCsv = await upload(workbook([['a'], [1]]), 'fake.csv');
    expect(zipAsCsv.statusCode).toBe(400);
  });

  it('uses only the uploader’s own files, and the spec’s messages for missing fields', async () => {
    const up = await upload(iconv.encode(GBK_TEXT, 'gbk'), 'mine.csv');
    const other = await scopedUser(t.app, { username: uniq('ds'), codes: ['DATASOURCE_ALL'], dataScope: '全部' });
    const res = await save({ dataName: 'x', type: 'csv', characterEncoding: 'GBK', url: up.json().path }, other.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('DATASOURCE_UPLOAD_UNKNOWN');
    expect((await save({ dataName: 'x', characterEncoding: 'GBK' })).json().message).toBe('数据源类型必填');
    expect((await save({ type: 'csv', characterEncoding: 'GBK' })).json().message).toBe('数据源名称必填');
    expect((await save({ type: 'csv', dataName: 'x' })).json().message).toBe('字符编码必填');
  });
});

describe('workbook data sources', () => {
  it('reads an .xls and an .xlsx (a title row above the header is skipped)', async () => {
    const rows = [['2026年3月员工花名册'], ['姓名', '身份证号', '基本工资'], ['张三', '110101199001011234', 5000.5], ['李四', '11010119900101123X', 6000]];
    for (const [book, name] of [
      ['xls', '花名册.xls'],
      ['xlsx', '花名册.xlsx'],
    ] as const) {
      const res = await fileSource(workbook(rows, book), name, 'xls', 'UTF-8');
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().rowCount).toBe(2);
      const d = (await details(res.json().id)).json();
      expect(d.tableData.map((f: { fieldName: string }) => f.fieldName)).toEqual(['姓名', '身份证号', '基本工资']);
      expect(d.pvData).toEqual([
        { 姓名: '张三', 身份证号: '110101199001011234', 基本工资: 5000.5 },
        { 姓名: '李四', 身份证号: '11010119900101123X', 基本工资: 6000 },
      ]);
    }
  });

  it('gives the dates of an .xlsx as ISO dates, not serial numbers (M6)', async () => {
    // SheetJS writes a Date as a serial number with a date format (built-in 14, or the custom code given)
    const ws = XLSX.utils.aoa_to_sheet([
      ['姓名', '入职日期', '离职日期', '打卡时间', '基本工资', '工号'],
      ['张三', new Date(Date.UTC(2024, 2, 15)), 45382, 45366.5, 5000.5, 45366],
    ]);
    ws.C2.z = 'yyyy"年"m"月"d"日"';
    ws.D2.z = 'yyyy-mm-dd hh:mm:ss';
    ws.E2.z = '#,##0.00';
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Sheet1');
    const res = await fileSource(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer, '入职.xlsx', 'xls', 'UTF-8');
    expect(res.statusCode, res.body).toBe(201);
    const d = (await details(res.json().id)).json();
    // the unformatted number 45366 stays a number: only the cell's style makes a date
    expect(d.pvData).toEqual([{ 姓名: '张三', 入职日期: '2024-03-15', 离职日期: '2024-03-31', 打卡时间: '2024-03-15 12:00:00', 基本工资: 5000.5, 工号: 45366 }]);
  });

  it('feeds a model task: a cross-tab of an .xls source, run by the scheduler, with exact cells (issue 11)', async () => {
    const rows = [['单位', '学历', '月薪'], ['甲单位', '本科', 5000.5], ['甲单位', '大专', 3000], ['乙单位', '本科', 4999.5]];
    const saved = (await fileSource(workbook(rows, 'xls'), '工资.xls', 'xls', 'UTF-8')).json();
    const models = (await t.app.inject({ method: 'GET', url: '/ModelManageMent/getModelList?pageNumber=1&pageSize=999&statu=1', headers: bearer(token) })).json().content as { id: number; site: string }[];
    const jobName = uniq('XLS交叉');
    const created = await t.app.inject({
      method: 'POST',
      url: '/taskManagement/jobs',
      headers: bearer(token),
      payload: { jobName, modelInfo: { id: models.find((m) => m.site === 'builtin:crosstab')!.id }, dataId: saved.id, cronTime: '0 0 3 * * ?', params: { rowField: '单位', colField: '学历', measure: 'sum:月薪' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/taskManagement/jobs/exec/${created.json().id}`, headers: bearer(token) });
    let group: { taskName: string; files: { id: number }[] } | undefined;
    for (let i = 0; i < 200 && !group; i++) {
      const list = (await t.app.inject({ method: 'GET', url: '/dataManagement/modelDataList?pageNumber=1&pageSize=50&modelName=xls_muti', headers: bearer(token) })).json();
      group = (list.content as { taskName: string; files: { id: number }[] }[]).find((g) => g.taskName === jobName);
      if (!group) await new Promise((r) => setTimeout(r, 50));
    }
    const preview = (await t.app.inject({ method: 'GET', url: `/dataManagement/customsDataDetails?id=${group!.files[0].id}`, headers: bearer(token) })).json() as { rows: unknown[][] };
    // exact fen sums, rows and columns in pinyin order: 甲 5,000.50 + 3,000 = 8,000.50; 本科 5,000.50 + 4,999.50 = 10,000
    expect(preview.rows).toEqual([
      ['甲单位', 5000.5, 3000, 8000.5],
      ['乙单位', 4999.5, 0, 4999.5],
      ['合计', 10000, 3000, 13000],
    ]);
  });

  it('refuses an ID card that Excel stored as a number (digits lost), naming the row and column', async () => {
    const res = await fileSource(workbook([['姓名', '身份证号'], ['张三', Number('110101199001011234')]]), 'ids.xlsx', 'xls', 'UTF-8');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^文件第2行：身份证号超过15位数字，Excel已丢失末尾数字/);
  });

  it('streams rows to a reader through openDataSource, and a limit stops early', async () => {
    const body = ['序号,姓名', ...Array.from({ length: 3000 }, (_, i) => `${i + 1},员工${i + 1}`)].join('\n');
    const saved = (await fileSource(iconv.encode(body, 'gbk'), 'big.csv', 'csv', 'GBK')).json();
    expect(saved.rowCount).toBe(3000);
    const owner = { ...(await loadCurrentUser(t.app.ctx.db, 1))!, tokenJti: 'test', tokenExp: 0 };
    const src = await openDataSource(t.app, saved.id, owner, { limit: 5 });
    const got: unknown[] = [];
    for await (const r of src.rows) got.push(r);
    await src.close();
    expect(src.fields).toEqual(['序号', '姓名']);
    expect(got).toHaveLength(5);
    expect(got[4]).toEqual({ 序号: '5', 姓名: '员工5' });
  });
});

describe('data-source permissions', () => {
  it('guards every endpoint by DATASOURCE_* codes', async () => {
    const none = await scopedUser(t.app, { username: uniq('none'), codes: ['ACCENTRY_ALL'] });
    const reader = await scopedUser(t.app, { username: uniq('reader'), codes: ['DATASOURCE_SELECT'], dataScope: '全部' });
    const creator = await scopedUser(t.app, { username: uniq('creator'), codes: ['DATASOURCE_CREATE'], dataScope: '全部' });
    const saved = (await fileSource(iconv.encode(GBK_TEXT, 'gbk'), 'p.csv', 'csv', 'GBK')).json();
    const call = (method: 'GET' | 'POST', url: string, tok?: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: tok ? bearer(tok) : {}, ...(payload ? { payload } : {}) }).then((r) => r.statusCode);
    const reads: [string, string][] = [
      ['GET', '/dataOrigin/getDataOriginList?pageNumber=1&pageSize=10'],
      ['GET', `/dataOrigin/details?id=${saved.id}`],
      ['GET', `/dataOrigin/getModelById?id=${saved.id}`],
      ['GET', '/customDatasource/list'],
    ];
    for (const [m, url] of reads) {
      expect(await call(m as 'GET', url), url).toBe(401);
      expect(await call(m as 'GET', url, none.token), url).toBe(403);
      expect(await call(m as 'GET', url, reader.token), url).toBe(200);
    }
    const writes: [string, unknown, string][] = [
      ['/dataOrigin/save', { id: saved.id, dataName: 'x', type: 'csv', characterEncoding: 'GBK', url: saved.url }, 'EDIT'],
      ['/dataOrigin/del', { id: saved.id }, 'DELETE'],
      ['/customDatasource/create', { name: 'x' }, 'CREATE'],
      ['/customDatasource/update', { id: 1, name: 'x' }, 'EDIT'],
      ['/dataOrigin/testConnection', { dataBaseSite: '127.0.0.1' }, 'CREATE'],
    ];
    for (const [url, body] of writes) {
      expect(await call('POST', url, undefined, body), url).toBe(401);
      expect(await call('POST', url, none.token, body), url).toBe(403);
      expect(await call('POST', url, reader.token, body), url).toBe(403);
    }
    // a creator may create but not change an existing source
    expect(await call('POST', '/dataOrigin/save', creator.token, { id: saved.id, dataName: 'x', type: 'csv', characterEncoding: 'GBK', url: saved.url })).toBe(403);
    expect((await upload(Buffer.from('a,b\n'), 'x.csv', reader.token)).statusCode).toBe(403);
    expect((await upload(Buffer.from('姓名,金额\n张三,1\n'), 'x.csv', creator.token)).statusCode).toBe(200);
    // delete: gone afterwards
    expect(await call('POST', '/dataOrigin/del', token, { id: saved.id })).toBe(200);
    expect(await call('GET', `/dataOrigin/details?id=${saved.id}`, token)).toBe(404);
  });
});
