import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { idCardCheckDigit, parseIdCard } from '@app/shared/idcard';
import { digitLossMessage, exactNumberText, textFieldCell } from '../src/core/excel/cells.ts';
import { zhText } from '@app/shared/errors/zodIssues';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, idCard, multipart, sheetRows, uniq, workbook, STAFF_SHEET_HEADERS, staffSheetRow } from './dispatch-fixtures.ts';

// Finding X1 / issue 14 item 1: a number cell keeps 15 significant digits, so an 18-digit ID card or a bank card
// typed as a number reaches the server with its last digits replaced. Text fields refuse such cells per row,
// naming the column and asking for the text format; every import counts these rows apart.

const session = adminApp();

const STAFF_HEADERS = STAFF_SHEET_HEADERS;

const staffRow = (company: string, name: string, id: unknown, overrides: Record<string, unknown> = {}) => staffSheetRow(STAFF_HEADERS, company, name, id, overrides);

async function upload(resource: string, file: Buffer, name = 'staff.xlsx') {
  const mp = multipart(file, name);
  return session.app.inject({ method: 'POST', url: `/api/import/${resource}`, headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
}

/** Rewrites the <v> text of numeric cells in the first sheet (SheetJS writes the shortest decimal; Excel writes 1.10105199208014E+17). */
async function patchSheetXml(buf: Buffer, from: string, to: string): Promise<Buffer> {
  const zip = await JSZip.loadAsync(buf);
  const name = Object.keys(zip.files).find((n) => /^xl\/worksheets\/sheet1\.xml$/.test(n))!;
  const xml = await zip.file(name)!.async('string');
  const target = `<v>${from}</v>`;
  expect(xml).toContain(target);
  zip.file(name, xml.split(target).join(`<v>${to}</v>`));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const staffOf = (companyId: number) => session.app.ctx.db.selectFrom('accounts_staff').selectAll().where('company_id', '=', companyId).orderBy('id').execute();

/**
 * An ID card (region 110105, born 1992-08-dd) whose number cell, keeping 15 digits, prints as an ID that still
 * passes the check digit: before the fix it was stored as a different person (about 1 garbled ID in 11).
 */
function idThatGarblesIntoAValidOne(): { real: string; garbled: string } {
  for (let day = 1; day <= 28; day++) {
    for (let d = 0; d <= 9; d++) {
      const first15 = `110105199208${String(day).padStart(2, '0')}${d}`;
      if (idCardCheckDigit(`${first15}00`) !== '0') continue;
      const first17 = `${first15}37`;
      return { real: first17 + idCardCheckDigit(first17), garbled: `${first15}000` };
    }
  }
  throw new Error('no garbling ID found');
}

describe('number cells for text fields (cells.ts)', () => {
  it('exact text for numbers of up to 15 significant digits, null when digits were lost', () => {
    expect(exactNumberText(1.10105199208014e17)).toBeNull();
    expect(exactNumberText(Number('110105199208012232'))).toBeNull(); // the double 110105199208012224
    expect(exactNumberText(Number('6222020200112233'))).toBeNull(); // 16 digits: Excel turns the 16th into 0
    expect(exactNumberText(1e15)).toBeNull();
    expect(exactNumberText(-Number('1234567890123456'))).toBeNull();
    expect(exactNumberText(0.1 + 0.2)).toBeNull(); // 0.30000000000000004: 17 significant digits
    expect(exactNumberText(Number.NaN)).toBeNull();
    expect(exactNumberText(999_999_999_999_999)).toBe('999999999999999');
    expect(exactNumberText(110101900101123)).toBe('110101900101123'); // a 15-digit legacy ID card is exact
    expect(exactNumberText(1.39e10)).toBe('13900000000');
    expect(exactNumberText(13900001111)).toBe('13900001111');
    expect(exactNumberText(1e-7)).toBe('0.0000001');
    expect(exactNumberText(-1.5e-7)).toBe('-0.00000015');
    expect(exactNumberText(0.5)).toBe('0.5');
    expect(exactNumberText(-12.25)).toBe('-12.25');
    expect(exactNumberText(12345678901234.5)).toBe('12345678901234.5');
    expect(exactNumberText(-0)).toBe('0');
    expect(exactNumberText(0)).toBe('0');
  });

  it('text cells pass unchanged unless they show a 16+ digit number in exponent form', () => {
    expect(textFieldCell('110105199208014238')).toBe('110105199208014238');
    expect(textFieldCell(' 1.10105E+17 ')).toBeNull();
    expect(textFieldCell('1.10105199208014e+17')).toBeNull();
    expect(textFieldCell('1.5E+3')).toBe('1.5E+3');
    expect(textFieldCell(true)).toBe('TRUE');
    expect(textFieldCell(null)).toBe('');
    expect(textFieldCell(1.10105199208014e17)).toBeNull();
    expect(zhText(digitLossMessage('身份证号'))).toBe('身份证号超过15位数字，Excel已丢失末尾数字（如 1.10105199208014E+17），请将“身份证号”列设置为文本格式后重新填写');
  });
});

describe('staff import', () => {
  it('refuses an .xlsx ID cell holding 1.10105199208014E+17 and a bank card number per row; other rows and 15-digit IDs import', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('位数单位') });
    const good = idCard('1990-01-01', 1);
    const { real, garbled } = idThatGarblesIntoAValidOne();
    expect(parseIdCard(garbled, '2026-01-01').ok).toBe(true); // printed as before the fix, it passed as someone else
    expect(Number(Number(real).toPrecision(15))).toBe(Number(garbled)); // what Excel keeps of the typed ID
    const file = await patchSheetXml(
      workbook([
        STAFF_HEADERS,
        staffRow(c.companyName, '文本身份证', good),
        staffRow(c.companyName, '数字身份证', Number('110105199208014000')),
        staffRow(c.companyName, '校验位碰巧对', Number(garbled)),
        staffRow(c.companyName, '数字银行卡', idCard('1990-01-01', 3), { 银行卡号: Number('6222020200112233445') }),
        staffRow(c.companyName, '旧身份证', 110101900101123, { 手机号: 13900002222 }),
        staffRow(c.companyName, '两处都丢', Number('110105199208014000'), { 银行卡号: Number('6.22202020011223e18'), 姓名: '' }),
      ]),
      '110105199208014000',
      '1.10105199208014E+17',
    );
    const res = await upload('accountsStaff', file);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 6, inserted: 2, updated: 0, failed: 4, digitLoss: 4 });
    const idMessage = '身份证号超过15位数字，Excel已丢失末尾数字（如 1.10105199208014E+17），请将“身份证号”列设置为文本格式后重新填写';
    const cardMessage = '银行卡号超过15位数字，Excel已丢失末尾数字（如 1.10105199208014E+17），请将“银行卡号”列设置为文本格式后重新填写';
    expect(body.errors).toEqual([
      { row: 3, column: '身份证号', message: idMessage },
      { row: 4, column: '身份证号', message: idMessage },
      { row: 5, column: '银行卡号', message: cardMessage },
      { row: 7, column: '身份证号', message: idMessage },
      { row: 7, column: '银行卡号', message: cardMessage },
      { row: 7, column: '姓名', message: expect.any(String) },
    ]);
    expect(body.errorFileId).toEqual(expect.any(String));

    const stored = await staffOf(c.id);
    expect(stored.map((r) => r.staff_name)).toEqual(['文本身份证', '旧身份证']);
    expect(stored[0]).toMatchObject({ id_card: good, bankcard_number: '6222020200112233445' });
    // the legacy 15-digit number is exact and becomes the 18-digit form; the phone number cell is exact too
    const legacy17 = '11010119900101123';
    expect(stored[1]).toMatchObject({ id_card: legacy17 + idCardCheckDigit(legacy17), born: '1990-01-01', sex: '男', phone: '13900002222' });
    const anyGarbled = await session.app.ctx.db
      .selectFrom('accounts_staff')
      .select('id')
      .where('id_card', 'in', ['110105199208014000', `${garbled.slice(0, 17)}0`, garbled])
      .execute();
    expect(anyGarbled).toEqual([]);

    // the error sheet gives the reason per row
    const sheet = await session.app.inject({ method: 'GET', url: `/api/import/errors/${body.errorFileId}`, headers: bearer(session.token) });
    expect(sheet.statusCode).toBe(200);
    const rows = sheetRows(sheet.rawPayload);
    expect(rows.flat().join('\n')).toContain(idMessage);

    // the corrected file (ID as text) adds the employees once; re-importing it updates them
    const fixed = workbook([STAFF_HEADERS, staffRow(c.companyName, '数字身份证', real), staffRow(c.companyName, '数字银行卡', idCard('1990-01-01', 3))]);
    expect((await upload('accountsStaff', fixed)).json()).toEqual({ total: 2, inserted: 2, updated: 0, failed: 0, errors: [] });
    expect((await upload('accountsStaff', fixed)).json()).toEqual({ total: 2, inserted: 0, updated: 2, failed: 0, errors: [] });
    expect(await staffOf(c.id)).toHaveLength(4);
  });

  it('refuses an .xls ID cell holding the double of 110105199208012232; the other row imports', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('XLS位数') });
    const file = workbook(
      [STAFF_HEADERS, staffRow(c.companyName, '数字身份证', Number('110105199208012232')), staffRow(c.companyName, '好行', idCard('1985-05-05', 5), { 银行卡号: 123456789012345 })],
      'xls',
    );
    const res = await upload('accountsStaff', file, 'staff.xls');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      total: 2,
      inserted: 1,
      failed: 1,
      digitLoss: 1,
      errors: [{ row: 2, column: '身份证号', message: expect.stringContaining('请将“身份证号”列设置为文本格式') }],
    });
    const stored = await staffOf(c.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ staff_name: '好行', bankcard_number: '123456789012345' });
  });

  it('counts only digit-loss rows in digitLoss (other failures are not counted)', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('计数单位') });
    const res = await upload('accountsStaff', workbook([STAFF_HEADERS, staffRow(c.companyName, '坏日期', idCard('1980-01-01', 1), { 入职日期: '明天' })]));
    const body = res.json();
    expect(body).toMatchObject({ total: 1, inserted: 0, failed: 1 });
    expect(body.digitLoss).toBeUndefined();
  });
});

describe('company import', () => {
  it('refuses a bank account held as a number with more than 15 digits, names the column, imports the rest', async () => {
    const headers = ['单位名称', '服务方式', '服务费类型', '服务费', '残疾人就业保障金', '派遣单位', '公积金基数', '养老保险基数', '医疗保险基数', '失业保险基数', '工伤保险基数', '生育保险基数', '银行账号', '电话'];
    const row = (name: string, card: unknown, phone: unknown = '010-88886666') => [name, '劳务派遣', '按人头', 80, 0, '北京华派人力资源有限公司', 8000, 7162, 7162, 7162, 7162, 7162, card, phone];
    const ok = uniq('账号文本');
    const bad = uniq('账号数字');
    const res = await upload('accountsCompany', workbook([headers, row(ok, '6222020200112233445', 13900001111), row(bad, Number('6222020200112233445'))]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      total: 2,
      inserted: 1,
      failed: 1,
      digitLoss: 1,
      errors: [{ row: 3, column: '银行账号', message: '银行账号超过15位数字，Excel已丢失末尾数字（如 1.10105199208014E+17），请将“银行账号”列设置为文本格式后重新填写' }],
    });
    const names = await session.app.ctx.db.selectFrom('accounts_company').select(['company_name', 'bank_card', 'phone']).where('company_name', 'in', [ok, bad]).execute();
    expect(names).toEqual([{ company_name: ok, bank_card: '6222020200112233445', phone: '13900001111' }]);
  });
});

describe('payslip import', () => {
  const HEADER = ['月份', '序号', '姓名', '身份证号', '银行', '银行账号', '基础工资', '本期应发', '实发'];
  const slips = () => session.app.ctx.db.selectFrom('ac_payslip').select(['name', 'id_card', 'bank_number']).where('month', '=', '2026-09').orderBy('id').execute();

  async function importSlips(rows: unknown[][], type: 'xlsx' | 'xls' = 'xlsx', patch?: [string, string]) {
    let file = workbook(rows, type);
    if (patch) file = await patchSheetXml(file, ...patch);
    const res = await upload('acPayslip', file, `payslips.${type}`);
    return { status: res.statusCode, body: res.json() };
  }

  it('refuses the file naming the rows and columns that lost digits and counts them; nothing is written', async () => {
    const res = await importSlips(
      [
        HEADER,
        ['2026-09', 1, '好行', idCard('1991-01-01', 1), '工行', '6222020200112233445', 5000, 5000, 5000],
        ['2026-09', 2, '数字身份证', Number('110105199208014000'), '工行', '6222020200112233446', 5000, 5000, 5000],
        ['2026-09', 3, '数字账号', idCard('1991-01-01', 3), '工行', Number('6222020200112233447'), 5000, 5000, 5000],
        ['2026-09', 4, '金额错', idCard('1991-01-01', 5), '工行', '1', '一千', 5000, 5000],
      ],
      'xlsx',
      ['110105199208014000', '1.10105199208014E+17'],
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('3行数据有误（其中2行有超过15位的数字，Excel已丢失末尾数字，请将相应列设置为文本格式），未导入任何数据');
    expect(res.body.message).toContain('第3行“身份证号”：身份证号超过15位数字');
    expect(res.body.message).toContain('第4行“银行账号”：银行账号超过15位数字');
    expect(res.body.fieldErrors['row3.身份证号']).toContain('请将“身份证号”列设置为文本格式');
    expect(await slips()).toEqual([]);
  });

  it('an .xls with the double of 110105199208012232 is refused; 15-digit legacy IDs and exact numbers import', async () => {
    const refused = await importSlips([HEADER, ['2026-09', 1, '数字身份证', Number('110105199208012232'), '', '', 1, 1, 1]], 'xls');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('身份证号超过15位数字');
    expect(await slips()).toEqual([]);
    const ok = await importSlips([HEADER, ['2026-09', 1, '旧身份证', 110101900101125, '', 123456789012345, 1, 1, 1]], 'xls');
    expect(ok).toMatchObject({ status: 200, body: { total: 1, inserted: 1 } });
    const legacy17 = '11010119900101125';
    expect(await slips()).toEqual([{ name: '旧身份证', id_card: legacy17 + idCardCheckDigit(legacy17), bank_number: '123456789012345' }]);
  });
});
