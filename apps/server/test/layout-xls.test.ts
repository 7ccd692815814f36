import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { type LayoutCell, type LayoutFileSpec, writeLayoutFile } from '../src/core/excel/layoutFile.ts';

/**
 * The .xls layout writer splices its own cell records into SheetJS's workbook (core/excel/biff8Cells.ts, for speed and
 * memory): its bytes must stay those SheetJS writes for the same sheet, and read back cell by cell.
 */

const spec: LayoutFileSpec = {
  fileType: 'xls',
  encoding: 'GBK',
  delimiter: ',',
  titleRow: true,
  headerLines: ['批次,P20261100007', ''],
  trailerLines: ['合计,8123.45'],
  columns: [{ title: '收款账号' }, { title: '户名' }, { title: '金额' }, { title: '分' }, { title: '备注' }],
};
const rows: LayoutCell[][] = Array.from({ length: 400 }, (_, i) => [
  `62220202001122${String(i).padStart(5, '0')}`,
  i === 7 ? '长'.repeat(300) : `员工${i}𠀀`,
  { number: 8123.45 + i, text: (8123.45 + i).toFixed(2), format: '0.00' },
  { number: 812345 + i, text: String(812345 + i) },
  i % 3 ? '' : '备注',
]);

/** What SheetJS itself writes for the same rows (the writer before the splice). */
function sheetJsBytes(): Buffer {
  const aoa: (string | number)[][] = [['批次', 'P20261100007'], [''], spec.columns.map((c) => c.title)];
  for (const r of rows) aoa.push(r.map((c) => (typeof c === 'string' ? c : c.number)));
  aoa.push(['合计', '8123.45']);
  const sheet = XLSX.utils.aoa_to_sheet(aoa);
  rows.forEach((_, r) => {
    sheet[XLSX.utils.encode_cell({ r: r + 3, c: 2 })].z = '0.00';
  });
  const wb = XLSX.utils.book_new();
  const at = new Date(Date.UTC(2000, 0, 1));
  wb.Props = { CreatedDate: at, ModifiedDate: at };
  XLSX.utils.book_append_sheet(wb, sheet, 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: 'biff8', compression: true }) as Buffer;
}

describe('layout .xls writer', () => {
  it('writes the bytes SheetJS writes, and they read back cell by cell', () => {
    const { bytes } = writeLayoutFile(spec, rows);
    expect(bytes.equals(sheetJsBytes())).toBe(true);
    const sheet = XLSX.read(bytes, { type: 'buffer' }).Sheets.Sheet1;
    expect(sheet['!ref']).toBe('A1:E404');
    expect(sheet.A4).toMatchObject({ t: 's', v: '6222020200112200000' });
    expect(sheet.B11.v).toBe('长'.repeat(255));
    expect(sheet.C5).toMatchObject({ t: 'n', v: 8124.45, w: '8124.45' });
    expect(sheet.D403).toMatchObject({ t: 'n', v: 812744 });
    expect(sheet.E4.v).toBe('备注');
    expect(sheet.B404.v).toBe('8123.45');
  });
});
