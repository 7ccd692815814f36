import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { idCard, multipart, workbook } from './dispatch-fixtures.ts';

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
