import { dynamicDb } from '../src/core/db.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { importFields } from '../src/core/excel/columns.ts';
import { staffResource } from '@app/shared/resources/staff';
import { companyResource } from '@app/shared/resources/company';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken, createCompany, createStaff, idCard, multipart, scopedUser, sheetRows, staffBody, uniq } from './dispatch-fixtures.ts';

let t: TestApp;
let token: string;
let company: Record<string, any>;
beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  company = await createCompany(t.app, token, { companyName: uniq('导出单位') });
  await createStaff(t.app, token, company.id, { staffName: '导出甲', idCard: idCard('1990-01-01', 1), censusType: 'bennong_24', address: '=HYPERLINK("http://evil.example","点我")', salary: 1234.5 });
  await createStaff(t.app, token, company.id, { staffName: '导出乙', idCard: idCard('1990-01-01', 3), phone: '+8613900000000', jobState: '离职' });
});
afterAll(async () => {
  await t?.close();
});

async function sheetXml(buf: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(buf);
  return zip.file('xl/worksheets/sheet1.xml')!.async('string');
}

describe('export', () => {
  it('streams the filtered staff as 员工信息.xlsx with Chinese headers, labels and an RFC 5987 file name', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${company.id}&sort=id,asc`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('员工信息.xlsx')}`);
    const rows = sheetRows(res.rawPayload);
    const header = rows[0] as string[];
    expect(header.slice(0, 3)).toEqual(['所属单位', '姓名', '身份证号']);
    expect(header).toContain('性别');
    expect(header).toContain('出生日期');
    expect(header).not.toContain('单位名称');
    expect(rows).toHaveLength(3);
    const col = (name: string) => header.indexOf(name);
    expect(rows[1][col('所属单位')]).toBe(company.companyName);
    expect(rows[1][col('姓名')]).toBe('导出甲');
    expect(rows[1][col('户籍类型')]).toBe('本农（养24号文）');
    expect(rows[1][col('基本工资')]).toBe(1234.5);
    expect(rows[1][col('性别')]).toBe('男');
    expect(rows[2][col('手机号')]).toBe('+8613900000000');
    const filtered = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${company.id}&jobState=${encodeURIComponent('离职')}`, headers: bearer(token) });
    expect(sheetRows(filtered.rawPayload)).toHaveLength(2);
    const viaPost = await t.app.inject({ method: 'POST', url: '/api/export/accountsStaff', headers: bearer(token), payload: { companyId: company.id, staffName: '导出乙' } });
    expect(viaPost.statusCode).toBe(200);
    expect(sheetRows(viaPost.rawPayload).map((r) => r[1])).toEqual(['姓名', '导出乙']);
  });

  it('never turns data into formulas (formula injection)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${company.id}`, headers: bearer(token) });
    const xml = await sheetXml(res.rawPayload);
    expect(xml).not.toContain('<f>');
    const rows = sheetRows(res.rawPayload);
    const header = rows[0] as string[];
    expect(rows.some((r) => r[header.indexOf('住址')] === '=HYPERLINK("http://evil.example","点我")')).toBe(true);
  });

  it('exports more rows than one chunk, in the requested order, and only within the caller scope', async () => {
    const c = await createCompany(t.app, token, { companyName: uniq('大单位') });
    const now = new Date().toISOString();
    const base = staffBody(c.id);
    const rows = [];
    for (let i = 0; i < 2300; i++) {
      rows.push({
        company_id: c.id,
        company_name: c.companyName,
        staff_name: `批量${String(i).padStart(4, '0')}`,
        id_card: idCard('1980-01-01', (i % 999) + 1, String(110101 + Math.floor(i / 999))),
        census_type: 'bencheng',
        phone: base.phone,
        job_state: '在职',
        salary: 500000,
        create_time: now,
        update_time: now,
      });
    }
    for (let i = 0; i < rows.length; i += 200) await dynamicDb(t.app.ctx.db).insertInto('accounts_staff').values(rows.slice(i, i + 200)).execute();
    const res = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${c.id}`, headers: bearer(token) });
    const out = sheetRows(res.rawPayload);
    expect(out).toHaveLength(2301);
    expect(out[1][1]).toBe('批量2299'); // default id,desc
    expect(out[2300][1]).toBe('批量0000');
    const byName = sheetRows((await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${c.id}&sort=staffName,asc`, headers: bearer(token) })).rawPayload);
    expect(byName).toHaveLength(2301);
    expect(byName[1][1]).toBe('批量0000');
    expect(byName[2300][1]).toBe('批量2299');
    const scoped = await scopedUser(t.app, { username: uniq('ex'), codes: ['ACCOUNTSSTAFF_SELECT'], dataScope: '本级' });
    const none = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${c.id}`, headers: bearer(scoped.token) });
    expect(sheetRows(none.rawPayload)).toHaveLength(1);
    const forbidden = await scopedUser(t.app, { username: uniq('ex'), codes: ['ACCENTRY_ALL'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/export/accountsStaff', headers: bearer(forbidden.token) })).statusCode).toBe(403);
  });

  it('round-trips: an exported file imports back as updates without errors', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/export/accountsStaff?companyId=${company.id}`, headers: bearer(token) });
    const mp = multipart(res.rawPayload, '员工信息.xlsx');
    const imp = await t.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: { ...bearer(token), ...mp.headers }, payload: mp.payload });
    expect(imp.json(), imp.body).toEqual({ total: 2, inserted: 0, updated: 2, failed: 0, errors: [] });
    const after = (await t.app.inject({ method: 'GET', url: `/api/accountsStaff?companyId=${company.id}&sort=id,asc`, headers: bearer(token) })).json().content;
    expect(after[0]).toMatchObject({ address: '=HYPERLINK("http://evil.example","点我")', salary: 1234.5, censusType: 'bennong_24', contractWarn: '2026-12-02' });
  });

  it('exports companies as 单位信息.xlsx', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/export/accountsCompany?companyName=${encodeURIComponent(company.companyName)}`, headers: bearer(token) });
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('单位信息.xlsx'));
    const rows = sheetRows(res.rawPayload);
    expect(rows[1][0]).toBe(company.companyName);
    expect(rows[0]).toContain('工伤保险单位比例');
  });
});

describe('templates', () => {
  it('offers the staff template: the import columns as headers, notes, drop-downs and a 填写说明 sheet', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/download/accountsStaff', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('员工信息模板.xlsx'));
    const rows = sheetRows(res.rawPayload);
    expect(rows[0]).toEqual(importFields(staffResource).map((f) => f.label));
    expect(rows).toHaveLength(1);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const wbXml = await zip.file('xl/workbook.xml')!.async('string');
    expect(wbXml).toContain('填写说明');
    expect(wbXml).toMatch(/name="选项"[^>]*state="hidden"/);
    const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheet).toContain('<dataValidation');
    expect(sheet).toContain('选项');
    const comments = Object.keys(zip.files).filter((n) => /comments/.test(n));
    expect(comments.length).toBeGreaterThan(0);
    const notes = await zip.file(comments.find((n) => n.endsWith('.xml'))!)!.async('string');
    expect(notes).toContain('本农');
    // an untouched template is an empty file, not an error in every row
    const mp = multipart(res.rawPayload, '模板.xlsx');
    const imp = await t.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: { ...bearer(token), ...mp.headers }, payload: mp.payload });
    expect(imp.json().message).toBe('文件中没有数据');
  });

  it('offers the company template with the dispatch companies as choices', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/download/accountsCompany', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(sheetRows(res.rawPayload)[0]).toEqual(importFields(companyResource).map((f) => f.label));
    const zip = await JSZip.loadAsync(res.rawPayload);
    const sheets = Object.keys(zip.files).filter((n) => n.startsWith('xl/worksheets/sheet'));
    const all = (await Promise.all(sheets.map((n) => zip.file(n)!.async('string')))).join('');
    const shared = (await zip.file('xl/sharedStrings.xml')?.async('string')) ?? '';
    expect(all + shared).toContain('北京华派人力资源有限公司');
  });
});
