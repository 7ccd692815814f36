import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { LABEL_PARAMS } from '@app/shared/errors/catalogue';
import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, createStaff, idCard, multipart } from './dispatch-fixtures.ts';

/**
 * Issue 21 item 2, platform part: errors thrown as catalogue codes (Excel import, company delete, contract
 * reminders) answer in the request's language; without Accept-Language the Chinese text is as before.
 */
const session = adminApp();

const headers = (language?: string) => ({ ...bearer(session.token), ...(language ? { 'accept-language': language } : {}) });

function workbook(rows: unknown[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

async function importStaff(file: Buffer, language?: string) {
  const mp = multipart(file, 'staff.xlsx');
  return session.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: { ...headers(language), ...mp.headers }, payload: mp.payload });
}

describe('converted platform errors in English', () => {
  it('an Excel import whose header lacks required columns', async () => {
    const file = workbook([['花名册'], ['姓名', '身份证号'], ['张三', idCard('1990-01-01', 47)]]);
    const zh = await importStaff(file);
    expect(zh.statusCode).toBe(400);
    expect(zh.json().code).toBe('IMPORT_HEADER_AT_ROW');
    expect(zh.json().message).toMatch(/^缺少必填列：.+（表头按第2行读取，该行认出的列：姓名、身份证号）$/);
    const en = await importStaff(file, 'en-US,en;q=0.9');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({ code: 'IMPORT_HEADER_AT_ROW' });
    expect(en.json().message).toMatch(/^Required columns are missing: .+ \(the header was read from row 2; columns recognised there: 姓名、身份证号\)$/);
    expect(en.headers['content-language']).toBe('en');
  });

  it('an upload that is not an Excel workbook, and one with no data', async () => {
    const notExcel = await importStaff(Buffer.from('plain text, not a workbook'), 'en');
    expect(notExcel.json()).toMatchObject({ status: 400, code: 'FILE_NOT_EXCEL', message: 'Only xls/xlsx files can be uploaded!' });
    const empty = await importStaff(workbook([[]]), 'en');
    expect(empty.json()).toMatchObject({ status: 400, code: 'FILE_NO_DATA', message: 'The file contains no data' });
  });

  it('deleting a company that still has staff', async () => {
    const c = await createCompany(session.app, session.token);
    await createStaff(session.app, session.token, c.id);
    const zh = await session.app.inject({ method: 'DELETE', url: `/api/accountsCompany/${c.id}`, headers: headers() });
    expect(zh.json()).toMatchObject({ status: 409, code: 'COMPANY_HAS_STAFF', message: '该单位下还有员工，不能删除' });
    const en = await session.app.inject({ method: 'DELETE', url: `/api/accountsCompany/${c.id}`, headers: headers('en') });
    expect(en.json()).toMatchObject({ status: 409, code: 'COMPANY_HAS_STAFF', message: 'The company still has staff and cannot be deleted' });
  });

  it('the contract-reminder list asked for staff not reminded', async () => {
    const url = `/api/accountsStaff/contractReminders?contractWarnState=${encodeURIComponent('未提醒')}`;
    const zh = await session.app.inject({ method: 'GET', url, headers: headers() });
    expect(zh.json()).toMatchObject({ status: 400, code: 'CONTRACT_REMINDER_LIST_REMINDED_ONLY', message: '提醒列表只包含已提醒的员工' });
    const ja = await session.app.inject({ method: 'GET', url, headers: headers('ja') });
    expect(ja.json()).toMatchObject({ code: 'CONTRACT_REMINDER_LIST_REMINDED_ONLY', message: '通知リストには通知済みの従業員のみが含まれます' });
    const en = await session.app.inject({ method: 'GET', url, headers: headers('en') });
    expect(en.json().message).toBe('The reminder list only holds staff who have been reminded');
  });
});

describe('a contract route names its fields in the request language', () => {
  it('a label the contract gives (contracts/labels.ts) is translated; a field zod checks is named by its API name', async () => {
    const tooLong = `/api/settlement/1?keyword=${'x'.repeat(51)}`;
    const zh = await session.app.inject({ method: 'GET', url: tooLong, headers: headers() });
    expect(zh.json()).toMatchObject({ status: 400, code: 'TEXT_TOO_LONG', message: '搜索内容不能超过50个字符' });
    const en = await session.app.inject({ method: 'GET', url: tooLong, headers: headers('en') });
    expect(en.json()).toMatchObject({ status: 400, code: 'TEXT_TOO_LONG', message: 'Search text may have at most 50 characters' });
    const es = await session.app.inject({ method: 'GET', url: tooLong, headers: headers('es') });
    expect(es.json().message).toBe('Texto de búsqueda admite como máximo 50 caracteres');

    const stateChange = (note: unknown, invoiceNo: string, language: string) =>
      session.app.inject({ method: 'PUT', url: '/api/settlement/1/state', headers: headers(language), payload: { state: 'SENT', note, invoiceNo } });
    const native = await stateChange(123, 'INV-1', 'en');
    expect(native.json()).toMatchObject({ status: 400, code: 'VALIDATION', message: 'note must be text', fieldErrorCodes: { note: 'FIELD_NOT_TEXT' } });
    const invoice = await stateChange('ok', 'I'.repeat(51), 'ja');
    expect(invoice.json()).toMatchObject({ status: 400, message: '請求書番号は50文字以内で入力してください', fieldErrorCodes: { invoiceNo: 'TEXT_TOO_LONG' } });
    for (const r of [en, es, native]) expect(r.json().message).not.toMatch(/\p{Script=Han}/u);
  });
});

describe('no Chinese sentence travels as a parameter', () => {
  it('an AppError thrown in apps/server/src passes Chinese only as a label (translated) or as data, never as its reason', () => {
    const root = path.resolve(import.meta.dirname, '../src');
    const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    // `new AppError('CODE', { name: '…中文…' })` with a literal: a label parameter is translated by the renderer, any
    // other would reach an English answer as Chinese (it must be a nested catalogue message)
    const throwWithText = /new AppError\('[A-Z_]+', \{([^}]*)\}/g;
    const chineseLiteral = /(\w+): *[`'][^`']*[\u4e00-\u9fa5]/g;
    const found: string[] = [];
    for (const f of files) {
      const source = fs.readFileSync(path.join(root, f), 'utf8');
      for (const m of source.matchAll(throwWithText)) {
        for (const p of m[1].matchAll(chineseLiteral)) if (!LABEL_PARAMS.has(p[1])) found.push(`${f}: ${p[0]}`);
      }
    }
    expect(found).toEqual([]);
    // the scan sees such a throw
    expect([..."new AppError('X', { reason: '数据库地址未知' })".matchAll(throwWithText)].flatMap((m) => [...m[1].matchAll(chineseLiteral)]).length).toBe(1);
  });
});
