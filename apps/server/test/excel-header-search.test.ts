import * as XLSX from '@e965/xlsx';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { adminApp, bearer } from './helpers.ts';
import { createCompany, idCard, multipart, uniq, STAFF_SHEET_HEADERS, staffSheetRow } from './dispatch-fixtures.ts';

// Issue 14 X2: the header is looked for among the first rows. A merged title row, a merged group-header row and
// blank rows above it are skipped; errors keep the real Excel row numbers; without a header the message names
// the row that was read and why it is not one.

const session = adminApp();

const STAFF_HEADERS = STAFF_SHEET_HEADERS;
const staffRow = (company: string, name: string, id: string, overrides: Record<string, unknown> = {}) => staffSheetRow(STAFF_HEADERS, company, name, id, overrides);

/**
 * An .xlsx whose first sheet carries the <mergeCells> element as Excel and LibreOffice write it after
 * <sheetData> (merged cells keep their text in the top-left cell only; the others are absent).
 */
async function mergedWorkbook(rows: unknown[][], merges: string[]): Promise<Buffer> {
  const ws = XLSX.utils.aoa_to_sheet(rows);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Sheet1');
  const zip = await JSZip.loadAsync(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  const mergeXml = `<mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`;
  expect(xml).toContain('</sheetData>');
  zip.file('xl/worksheets/sheet1.xml', xml.replace('</sheetData>', `</sheetData>${mergeXml}`));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function upload(resource: string, file: Buffer) {
  const mp = multipart(file, 'file.xlsx');
  const res = await session.app.inject({ method: 'POST', url: `/api/import/${resource}`, headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}

describe('header search (X2)', () => {
  it('staff: a merged title row, a merged group-header row and a blank row above the header; errors keep Excel row numbers', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('表头单位') });
    const group = STAFF_HEADERS.map((_, i) => (i === 0 ? '基本信息' : i === 6 ? '工资与社保' : i === 10 ? '合同' : null));
    const file = await mergedWorkbook(
      [
        [`${c.companyName}2026年3月员工花名册`],
        group,
        [],
        STAFF_HEADERS,
        staffRow(c.companyName, '表头甲', idCard('1990-01-01', 41)),
        staffRow(c.companyName, '表头乙', '110101199001010000'),
        staffRow(c.companyName, '表头丙', idCard('1990-01-01', 43)),
      ],
      ['A1:Q1', 'A2:F2', 'G2:J2', 'K2:Q2'],
    );
    const res = await upload('accountsStaff', file);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, inserted: 2, failed: 1 });
    expect(res.body.errors).toEqual([expect.objectContaining({ row: 6, column: '身份证号' })]);
    const names = (await session.app.ctx.db.selectFrom('accounts_staff').select('staff_name').where('company_id', '=', c.id).orderBy('id').execute()).map((r) => r.staff_name);
    expect(names).toEqual(['表头甲', '表头丙']);
  });

  it('no header among the first rows: the message names the row read and why it is not a header', async () => {
    const noNames = await upload('accountsStaff', await mergedWorkbook([['2026年3月员工花名册'], ['张三', '110101199001010011']], ['A1:Q1']));
    expect(noNames.status).toBe(400);
    expect(noNames.body.message).toContain('未找到表头');
    expect(noNames.body.message).toContain('第1行（2026年3月员工花名册）不是表头，其中没有可识别的列名');
    const partial = await upload('accountsStaff', await mergedWorkbook([['花名册'], ['姓名', '身份证号'], ['张三', idCard('1990-01-01', 45)]], ['A1:B1']));
    expect(partial.status).toBe(400);
    expect(partial.body.message).toContain('缺少必填列：');
    expect(partial.body.message).toContain('表头按第2行读取，该行认出的列：姓名、身份证号');
  });

  it('payslips: a merged title row above the header; row errors keep Excel row numbers', async () => {
    const header = ['月份', '序号', '姓名', '身份证号', '基础工资', '实发'];
    const a = idCard('1991-06-01', 47);
    const rows = [['2026年7月工资条'], [], header, ['2026-07', 1, '工资条表头甲', a, 5000, 4600], ['2026-07', 2, '工资条表头乙', idCard('1991-06-01', 49), '五千', 4600]];
    const mp = (file: Buffer) => multipart(file, 'slips.xlsx');
    const send = async (file: Buffer) => {
      const m = mp(file);
      const res = await session.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...bearer(session.token), ...m.headers }, payload: m.payload });
      return { status: res.statusCode, body: res.json() };
    };
    const bad = await send(await mergedWorkbook(rows, ['A1:F1']));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('第5行“基础工资”');
    const ok = await send(await mergedWorkbook(rows.slice(0, 4), ['A1:F1']));
    expect(ok).toMatchObject({ status: 200, body: { total: 1, inserted: 1 } });
  });
});
