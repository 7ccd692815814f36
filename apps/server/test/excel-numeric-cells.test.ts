import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindOf, type ResourceDef } from '@app/shared/resource';
import { companyResource } from '@app/shared/resources/company';
import { payslipResource } from '@app/shared/resources/payslip';
import { salaryResource } from '@app/shared/resources/salary';
import { staffResource } from '@app/shared/resources/staff';
import { exportFields } from '../src/core/excel/columns.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { adminToken } from './dispatch-fixtures.ts';
import { type Api, api, companyWithStaff, runMonth, vectorStaff } from './payroll-fixtures.ts';

// Issue 14 X5: exports open in Excel without "number stored as text" on numeric columns (every money, ratio
// and counter cell is a numeric cell, read here from the sheet XML), ratios use a format Excel shows without a
// dangling point (0.######  showed 0 as "0."), and 序号 of the salary report is a number.

let t: TestApp;
let token: string;
let admin: Api;
let company: Record<string, any>;
const month = '2026-10';
beforeAll(async () => {
  t = await createTestApp();
  token = await adminToken(t.app);
  admin = api(t.app, token);
  ({ company } = await companyWithStaff(t.app, token, [vectorStaff(8000, { staffName: '数值甲' }), vectorStaff(5000, { staffName: '数值乙' })]));
  await runMonth(admin, company.id, month);
  expect((await admin('POST', '/api/acPayslip/generate', { companyId: company.id, month })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

interface Cell {
  col: string;
  row: number;
  attrs: string;
  text: string;
}
async function sheetXml(buf: Buffer): Promise<{ cells: Cell[]; styles: string }> {
  const zip = await JSZip.loadAsync(buf);
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  const cells = [...xml.matchAll(/<c r="([A-Z]+)(\d+)"([^>]*?)(?:\/>|>(.*?)<\/c>)/g)].map((m) => ({ col: m[1], row: Number(m[2]), attrs: m[3], text: (m[4] ?? '').replace(/<[^>]+>/g, '') }));
  return { cells, styles: await zip.file('xl/styles.xml')!.async('string') };
}
const numericLabels = (def: ResourceDef) => exportFields(def).filter((f) => ['money', 'ratio', 'int', 'number'].includes(kindOf(f).excel.cell)).map((f) => f.label);

/** Every cell of the named columns below the header is numeric (no t= attribute); returns how many were checked. */
function expectNumeric(cells: Cell[], labels: string[], lastRow = Number.POSITIVE_INFINITY): number {
  const header = new Map(cells.filter((c) => c.row === 1).map((c) => [c.text, c.col]));
  const cols = new Set(labels.map((l) => header.get(l)).filter((c): c is string => !!c));
  expect(cols.size).toBeGreaterThan(0);
  const checked = cells.filter((c) => c.row > 1 && c.row <= lastRow && cols.has(c.col));
  for (const c of checked) expect({ cell: `${c.col}${c.row}`, numeric: !/\bt="/.test(c.attrs) }).toEqual({ cell: `${c.col}${c.row}`, numeric: true });
  return checked.length;
}

async function get(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('numeric cells in exports (X5)', () => {
  it('ratio format shows no dangling point', async () => {
    const { styles } = await sheetXml(await get(`/api/export/accountsStaff?companyId=${company.id}`));
    const fmt = /<numFmt numFmtId="165" formatCode="([^"]+)"\/>/.exec(styles)?.[1];
    expect(fmt).toBe('0.00####');
    expect(styles).not.toContain('0.######');
  });

  it('staff, companies and payslips: money, ratio and counter columns are numeric cells', async () => {
    const staff = await sheetXml(await get(`/api/export/accountsStaff?companyId=${company.id}`));
    expect(expectNumeric(staff.cells, numericLabels(staffResource))).toBeGreaterThan(10);
    const companies = await sheetXml(await get(`/api/export/accountsCompany?companyName=${encodeURIComponent(company.companyName)}`));
    expect(expectNumeric(companies.cells, numericLabels(companyResource))).toBeGreaterThan(0);
    const slips = await sheetXml(await get(`/api/export/acPayslipAll?month=${month}`));
    expect(expectNumeric(slips.cells, numericLabels(payslipResource))).toBeGreaterThan(10);
  });

  it('salary report: 序号 and money are numbers (合计 and the footer are the text rows below)', async () => {
    const res = await admin('POST', '/api/export/accountsSalary', { companyId: company.id, month, cname: '系统管理员' });
    expect(res.status).toBe(200);
    const { cells } = await sheetXml(res.raw.rawPayload);
    const moneyLabels = salaryResource.fields.filter((f) => f.kind === 'money').map((f) => f.label);
    expect(expectNumeric(cells, ['序号'], 3)).toBe(2);
    expect(expectNumeric(cells, moneyLabels, 4)).toBeGreaterThan(10);
    expect(cells.filter((c) => c.col === 'A' && c.row > 1).map((c) => c.text)).toEqual(['1', '2', '合计', expect.stringContaining('服务费'), expect.stringContaining('制表人')]);
  });
});
