import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { badCheckDigit, createCompany, idCard, multipart, sheetRows, staffSheetRow, uniq, workbook } from './dispatch-fixtures.ts';

/**
 * Issue 21 item 2, the problem lists: a refused file's rows (payslip import) are codes with parameters up to the
 * answer, so an English answer has no Chinese apart from the user's own data, and the Chinese answer is as before.
 */
const session = adminApp();

const headers = (language?: string) => ({ ...bearer(session.token), ...(language ? { 'accept-language': language } : {}) });
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
/** The text with the user's own data (names, ID cards) taken out, to look for Chinese left in the wording. */
const without = (text: string, ...userData: string[]) => userData.reduce((t, d) => t.split(d).join(''), text);

async function upload(url: string, file: Buffer, language?: string, fields: Record<string, string> = {}) {
  const mp = multipart(file, 'upload.xlsx', fields);
  return session.app.inject({ method: 'POST', url, headers: { ...headers(language), ...mp.headers }, payload: mp.payload });
}

const PAYSLIP_HEADER = ['月份', '姓名', '身份证号', '基础工资', '本期应发', '实发'];

describe('payslip import refusals in the request language', () => {
  it('lists the rows with problems in the headline', async () => {
    const file = workbook([PAYSLIP_HEADER, ['2026-02', '甲', idCard('1980-01-01', 901), 'abc', 100, 100], ['2026-02', '乙', '123', 100, 100, 100]]);
    const zh = await upload('/api/import/acPayslip', file);
    expect(zh.statusCode).toBe(400);
    expect(zh.json().code).toBe('PAYSLIP_IMPORT_ROWS');
    expect(zh.json().message).toBe('2行数据有误，未导入任何数据：第2行“基础工资”：基础工资必须是数字；第3行“身份证号”：身份证号码不正确');
    const en = await upload('/api/import/acPayslip', file, 'en');
    expect(en.json().code).toBe('PAYSLIP_IMPORT_ROWS');
    expect(en.json().message).toMatch(/^2 rows are wrong; nothing was imported: Row 2, ".+": .+; Row 3, ".+": .+$/);
    expect(en.json().message).not.toMatch(CJK);
  });

  it('names the payslips a row cannot choose between', async () => {
    const month = '2026-01';
    const card = idCard('1981-01-01', 902);
    const db = session.app.ctx.db;
    await db.insertInto('ac_payslip').values({ month, name: '丙', id_card: card, mingcheng: '甲单位', jichu: 1, source: '导入' }).execute();
    await db.insertInto('ac_payslip').values({ month, name: '丙', id_card: card, mingcheng: '', jichu: 1, source: '导入' }).execute();
    // a 名称 that is neither of them: the row cannot say which one it replaces
    const file = workbook([[...PAYSLIP_HEADER, '名称'], [month, '丙', card, 200, 200, 200, '丁单位']]);
    const zh = await upload('/api/import/acPayslip', file);
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toMatchObject({ code: 'PAYSLIP_IMPORT_UNMATCHED' });
    expect(zh.json().message).toBe(
      `1行无法确定对应的工资条，未导入任何数据：第2行“身份证号”：${card}在${month}已有2条工资条（名称：甲单位、未填名称），无法确定替换哪一条，请在“名称”列填写对应单位名称，或先删除多余的工资条`,
    );
    const en = await upload('/api/import/acPayslip', file, 'en');
    expect(en.json().message).toBe(
      `For 1 rows the payslip to replace is unclear; nothing was imported: Row 2, "ID card": ${card} already has 2 payslips in ${month} (names: 甲单位, no name); which one to replace is unclear: fill the "name" column with the company name, or delete the extra payslips first`,
    );
    expect(without(en.json().message, '甲单位')).not.toMatch(CJK);
  });
});

const STAFF_HEADERS = ['所属单位', '姓名', '身份证号', '户籍类型', '手机号', '入职日期', '基本工资', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间'];

describe('the generic import: row errors and the error sheet in the request language', () => {
  it('answers the rows and writes the error sheet in English, with only the file’s own data in Chinese', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('英文错误单位') });
    const row = (name: string, id: string, overrides: Record<string, unknown> = {}) => staffSheetRow(STAFF_HEADERS, c.companyName, name, id, overrides);
    const dup = idCard('1996-09-09', 21);
    const file = () =>
      workbook([
        STAFF_HEADERS,
        row('好人', dup),
        row('校验位错', badCheckDigit(idCard('1996-09-09', 23))),
        row('字典错', idCard('1996-09-09', 25), { 户籍类型: '火星户口' }),
        row('重复', dup),
        row('', idCard('1996-09-09', 27)),
        staffSheetRow(STAFF_HEADERS, '不存在的单位', '无单位', idCard('1996-09-09', 29)),
        row('日期错', idCard('1996-09-09', 31), { 入职日期: '明天' }),
      ]);
    const res = await upload('/api/import/accountsStaff', file(), 'en');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 7, inserted: 1, failed: 6 });
    // the user's data: the file's values and the dictionary's own labels (options named in a hint)
    const userData = ['火星户口', '不存在的单位', '明天', c.companyName, '本农（养24号文）', '本农', '本城', '外城', '外农'];
    expect(body.errors).toHaveLength(6);
    for (const e of body.errors) {
      expect(without(e.message, ...userData), e.message).not.toMatch(CJK);
      expect(e.column, e.message).not.toMatch(CJK);
    }
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { row: 5, column: 'ID card no.', message: 'Duplicates row 2 (same Company+ID card no.)' },
        { row: 7, column: 'Company', message: expect.stringMatching(/^Company "不存在的单位" .+ \(.+ derive from it and are filled in once the column is corrected\)$/) },
      ]),
    );

    const dl = await session.app.inject({ method: 'GET', url: `/api/import/errors/${body.errorFileId}`, headers: headers() });
    expect(dl.headers['content-disposition']).toContain(encodeURIComponent('Employee import errors'));
    const sheet = sheetRows(dl.rawPayload);
    // the uploaded headers and cells are the user's own; the sheet's own headers and the reasons are English
    expect(sheet[0]).toEqual(['Row', ...STAFF_HEADERS, 'Reason']);
    expect(sheet).toHaveLength(7);
    for (const r of sheet.slice(1)) expect(without(String(r[STAFF_HEADERS.length + 1]), ...userData)).not.toMatch(CJK);
    expect(String(sheet[1][STAFF_HEADERS.length + 1])).toMatch(/^ID card no\.: /);

    // the same file in Chinese: the answer and the sheet as before
    const zh = await upload('/api/import/accountsStaff', file());
    const zhBody = zh.json();
    expect(zhBody.errors).toEqual(expect.arrayContaining([{ row: 5, column: '身份证号', message: '与第2行重复（所属单位+身份证号相同）' }]));
    const zhSheet = sheetRows((await session.app.inject({ method: 'GET', url: `/api/import/errors/${zhBody.errorFileId}`, headers: headers() })).rawPayload);
    expect(zhSheet[0]).toEqual(['行号', ...STAFF_HEADERS, '错误原因']);
    expect(String(zhSheet[1][STAFF_HEADERS.length + 1])).toBe('身份证号：身份证号码不正确');
  });
});
