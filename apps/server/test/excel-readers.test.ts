import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { RATIO_IMPORT_RULE } from '@app/shared/resource';
import { cellText, excelSerialToDate, parseDateText, parseMonthText, ratioCell, restoreNeutralizedText, roundNoise } from '../src/core/excel/cells.ts';
import { openWorkbook, sniffExcelFormat } from '../src/core/excel/readWorkbook.ts';
import { readWithSheetJs } from '../src/core/excel/readXls.ts';
import { WorkbookFormatError, type SheetRow, type WorkbookRows } from '../src/core/excel/types.ts';
import { xlsxBuffer } from '../src/core/excel/xlsxStream.ts';
import { workbook } from './dispatch-fixtures.ts';

async function all(wb: WorkbookRows): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const r of wb.rows) out.push(r);
  return out;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** The same package with every SpreadsheetML element written with a namespace prefix (`xmlns:x` instead of `xmlns`). */
async function withPrefix(buf: Buffer, prefix = 'x'): Promise<Buffer> {
  const zip = await JSZip.loadAsync(buf);
  for (const name of Object.keys(zip.files)) {
    if (!/^xl\/(workbook|sharedStrings|styles|worksheets\/[^/]+)\.xml$/.test(name)) continue;
    const xml = await zip.file(name)!.async('string');
    expect(xml, name).toContain(`xmlns="${MAIN}"`);
    zip.file(name, xml.replace(`xmlns="${MAIN}"`, `xmlns:${prefix}="${MAIN}"`).replace(/<(\/?)([A-Za-z_][\w.-]*)(?=[\s/>])/g, `<$1${prefix}:$2`));
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe('workbook readers', () => {
  it('the streaming .xlsx reader and SheetJS agree on a SheetJS-written workbook (types, formulas, gaps)', async () => {
    const rows = [
      ['姓名', '日期', '金额', '布尔', '', '远列'],
      ['张三 & <李四> "引号"', 45352, 12.5, true, null, 'x'],
      [null, { t: 'n', v: 3, f: '1+2' }, { t: 's', v: '公式', f: '"公"&"式"' }, false],
      [' 前后空格 ', -0.25, 1e-7, { t: 'e', v: 7 }, null, null],
    ];
    const buf = workbook(rows);
    const mine = await all(openWorkbook(buf));
    const theirs = await all(readWithSheetJs(buf, 'xlsx'));
    expect(mine).toEqual(theirs);
    expect(mine[1].cells).toEqual(['张三 & <李四> "引号"', 45352, 12.5, true, null, 'x']);
    expect(mine[2].cells).toEqual([null, 3, '公式', false]);
    expect(mine[3].cells[3]).toBe('#DIV/0!');
  });

  it('reads shared strings with rich text and phonetic runs, inline strings, escapes, and rows without references', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file(
      'xl/workbook.xml',
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr date1904="1"/><sheets><sheet name="隐藏" sheetId="2" state="hidden" r:id="rId2"/><sheet name="数据" sheetId="1" r:id="rId1"/></sheets></workbook>',
    );
    zip.file(
      'xl/_rels/workbook.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x/worksheet" Target="/xl/worksheets/data.xml"/><Relationship Id="rId2" Type="x/worksheet" Target="worksheets/hidden.xml"/><Relationship Id="rId3" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    );
    zip.file(
      'xl/sharedStrings.xml',
      '<sst><si><t>普通</t></si><si><r><rPr><b/></rPr><t>富</t></r><r><t xml:space="preserve">文本 </t></r><rPh sb="0" eb="1"><t>フ</t></rPh></si><si/><si><t>&#20013;&amp;_x000D_换行</t></si></sst>',
    );
    zip.file('xl/worksheets/hidden.xml', '<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>不该读</t></is></c></row></sheetData></worksheet>');
    zip.file(
      'xl/worksheets/data.xml',
      '<worksheet><sheetData><row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row><row r="3" spans="1:4"><c r="C3" t="s"><v>3</v></c><c t="inlineStr"><is><r><t>内</t></r><r><t>联</t></r></is></c></row><row/><row><c r="B5" t="s"><v>2</v></c><c t="d"><v>2024-03-01T00:00:00Z</v></c></row></sheetData></worksheet>',
    );
    const buf = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const wb = openWorkbook(buf);
    expect(wb.sheetName).toBe('数据');
    expect(wb.date1904).toBe(true);
    expect(await all(wb)).toEqual([
      { row: 1, cells: ['普通', '富文本 '] },
      { row: 3, cells: [null, null, '中&\r换行', '内联'] },
      { row: 4, cells: [] },
      { row: 5, cells: [null, '', '2024-03-01T00:00:00Z'] },
    ]);
  });

  it('streams large sheets across chunk boundaries (multi-byte text) and agrees with SheetJS on ExcelJS and own output', async () => {
    const rows: unknown[][] = [['序号', '名称', '长文本']];
    for (let i = 0; i < 4000; i++) rows.push([i, `员工${i}号`, '很长的中文文本'.repeat(20) + i]);
    const sj = workbook(rows);
    const mine = await all(openWorkbook(sj));
    expect(mine).toHaveLength(4001);
    expect(mine[4000].cells).toEqual([3999, '员工3999号', `${'很长的中文文本'.repeat(20)}3999`]);

    const ej = new ExcelJS.Workbook();
    const ws = ej.addWorksheet('S');
    for (const r of rows.slice(0, 500)) ws.addRow(r);
    ws.getCell('D2').value = { richText: [{ text: '甲', font: { bold: true } }, { text: '乙' }] };
    ws.getCell('E2').value = { formula: 'A2*2', result: 0 };
    const ejBuf = Buffer.from(await ej.xlsx.writeBuffer());
    expect(await all(openWorkbook(ejBuf))).toEqual(await all(readWithSheetJs(ejBuf, 'xlsx')));

    const own = await xlsxBuffer({
      fileName: 'own',
      columns: [
        { header: '文本', key: 'a' },
        { header: '金额', key: 'b', kind: 'money' },
        { header: '日期', key: 'c', kind: 'date' },
      ],
      rows: [
        { a: '=1+1', b: 12.34, c: '2024-02-29' },
        { a: ' 空格 ', b: null, c: null },
      ],
    });
    const ownRows = await all(openWorkbook(own));
    // the streaming reader also says which numbers the styles show as dates (SheetJS here does not)
    expect(ownRows[1].dates).toEqual([2]);
    expect(ownRows.map(({ row, cells }) => ({ row, cells }))).toEqual(await all(readWithSheetJs(own, 'xlsx')));
    expect(ownRows[1].cells).toEqual(['=1+1', 12.34, 45351]);
    expect(ownRows[2].cells).toEqual([' 空格 ']);
  });

  it('reads SpreadsheetML written with a namespace prefix (<x:row>, <x:c>, <x:v>, <x:si>) like the same workbook without', async () => {
    const sheetJs = workbook([
      ['姓名', '金额', '日期'],
      ['张三 & <李四>', 12.5, { t: 'n', v: 45352, f: 'DATE(2024,3,1)' }],
      [null, true, '文本'],
    ]);
    const ej = new ExcelJS.Workbook();
    const ws = ej.addWorksheet('员工');
    ws.addRow(['姓名', '身份证号', '说明']);
    ws.addRow(['李四', '11010119900101001X', '共享']);
    ws.addRow(['王五', '共享', 3]);
    ws.getCell('C3').value = { richText: [{ text: '富', font: { bold: true } }, { text: '文本' }] };
    const exceljs = Buffer.from(await ej.xlsx.writeBuffer()); // shared strings
    const own = await xlsxBuffer({ fileName: 'own', columns: [{ header: '文本', key: 'a' }, { header: '金额', key: 'b', kind: 'money' }], rows: [{ a: '甲', b: 1.5 }] });
    for (const [name, buf] of [['SheetJS', sheetJs], ['ExcelJS', exceljs], ['own writer', own]] as const) {
      const plain = openWorkbook(buf);
      const prefixed = openWorkbook(await withPrefix(buf));
      expect([prefixed.sheetName, prefixed.date1904], name).toEqual([plain.sheetName, plain.date1904]);
      const rows = await all(prefixed);
      expect(rows.length, name).toBeGreaterThan(1);
      expect(rows, name).toEqual(await all(plain));
    }
  });

  it('resolves namespaces as XML does: strict OOXML is read, other namespaces are not, declarations have a scope', async () => {
    const zip = new JSZip();
    zip.file(
      'xl/workbook.xml',
      '<w:workbook xmlns:w="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:rel="http://purl.oclc.org/ooxml/officeDocument/relationships"><w:sheets><w:sheet name="严格" sheetId="1" rel:id="rId1"/></w:sheets></w:workbook>',
    );
    zip.file(
      'xl/_rels/workbook.xml.rels',
      '<p:Relationships xmlns:p="http://schemas.openxmlformats.org/package/2006/relationships"><p:Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet" Target="worksheets/sheet1.xml"/></p:Relationships>',
    );
    zip.file(
      'xl/worksheets/sheet1.xml',
      `<s:worksheet xmlns:s="${MAIN}" xmlns:o="urn:other" xmlns="urn:other-default"><s:sheetData>` +
        '<s:row r="1"><s:c r="A1" t="inlineStr"><s:is><s:t>甲</s:t><o:t>不读</o:t><t>也不读</t></s:is></s:c><o:c r="B1"><s:v>9</s:v></o:c></s:row>' +
        '<o:row r="2"><o:c r="A2"><o:v>1</o:v></o:c></o:row>' +
        '<row r="3"><c r="A3"><v>2</v></c></row>' +
        '<s:row r="4" xmlns:s="urn:rebound"><s:c r="A4"><s:v>3</s:v></s:c></s:row>' +
        `<y:row r="5" xmlns:y="${MAIN}"><y:c r="C5"><y:v>4</y:v></y:c></y:row>` +
        '<s:row r="6"><s:c r="A6"><s:v>5</s:v></s:c></s:row>' +
        '</s:sheetData></s:worksheet>',
    );
    const wb = openWorkbook(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    expect(wb.sheetName).toBe('严格');
    expect(await all(wb)).toEqual([
      { row: 1, cells: ['甲'] },
      { row: 5, cells: [null, null, 4] },
      { row: 6, cells: [5] },
    ]);
  });

  it('refuses XML that is not well-formed as a damaged file', async () => {
    const zip = new JSZip();
    zip.file('xl/workbook.xml', `<workbook xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    zip.file('xl/_rels/workbook.xml.rels', '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>');
    zip.file('xl/worksheets/sheet1.xml', `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c><v>1</v></c></row><row r="2"><c><v>2</v></row></sheetData></worksheet>`);
    const wb = openWorkbook(await zip.generateAsync({ type: 'nodebuffer' }));
    await expect(all(wb)).rejects.toThrow('文件已损坏，无法读取');
  });

  it('.xls: the date system and the sheet name come from the global records as SheetJS reads them, the rows from a child process', async () => {
    for (const n of [2, 600]) {
      // n = 2: the workbook stream is small enough for the mini stream; 600 rows: it has sectors of its own
      const rows: unknown[][] = [['日期', '名称']];
      for (let i = 1; i < n; i++) rows.push([45352 + i, `第${i}行`]);
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['隐藏']]), '隐藏表');
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '数据表');
      wb.Workbook = { WBProps: { date1904: true }, Sheets: [{ name: '隐藏表', Hidden: 1 }, { name: '数据表', Hidden: 0 }] };
      const buf = XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
      const direct = XLSX.read(buf, { type: 'buffer' });
      expect(direct.Workbook?.WBProps?.date1904, `${n}`).toBe(true);
      const mine = openWorkbook(buf);
      expect([mine.format, mine.sheetName, mine.date1904], `${n}`).toEqual(['xls', '数据表', true]);
      const read = await all(mine);
      expect(read, `${n}`).toHaveLength(n);
      expect(read[n - 1], `${n}`).toEqual({ row: n, cells: [45352 + n - 1, `第${n - 1}行`] });
    }
  });

  it('reads .xls through SheetJS and sniffs the format by magic bytes only', async () => {
    const xls = workbook([['a', 'b'], [1, '二']], 'xls');
    expect(sniffExcelFormat(xls)).toBe('xls');
    expect(sniffExcelFormat(workbook([['a']]))).toBe('xlsx');
    expect(sniffExcelFormat(Buffer.from('a,b\n1,2'))).toBeNull();
    const wb = openWorkbook(xls);
    expect(wb.format).toBe('xls');
    expect(await all(wb)).toEqual([
      { row: 1, cells: ['a', 'b'] },
      { row: 2, cells: [1, '二'] },
    ]);
    expect(() => openWorkbook(Buffer.from('hello'))).toThrow(WorkbookFormatError);
    const ole = Buffer.concat([xls.subarray(0, 8), Buffer.alloc(600)]);
    expect(() => openWorkbook(ole)).toThrow(WorkbookFormatError);
  });
});

describe('cell conversions', () => {
  it('turns Excel serials into dates in both date systems', () => {
    expect(excelSerialToDate(45352)).toBe('2024-03-01');
    expect(excelSerialToDate(45352.75)).toBe('2024-03-01');
    expect(excelSerialToDate(61)).toBe('1900-03-01');
    expect(excelSerialToDate(43890, true)).toBe('2024-03-01');
    expect(excelSerialToDate(0)).toBeNull();
    expect(excelSerialToDate(Number.NaN)).toBeNull();
  });

  it('reads dates and months typed in the usual ways', () => {
    for (const s of ['2024-03-01', '2024/3/1', '2024.03.01', '2024年3月1日', '20240301', '2024-03-01 08:30:00', '2024-03-01T00:00:00Z', ' 2024 / 3 / 1 ']) {
      expect(parseDateText(s), s).toBe('2024-03-01');
    }
    expect(parseDateText('明天')).toBeNull();
    expect(parseDateText('01/03/2024')).toBeNull();
    for (const s of ['2024-03', '2024/3', '2024年3月', '202403', '2024-03-15']) expect(parseMonthText(s), s).toBe('2024-03');
  });

  it('keeps money and ratios exact: float noise rounded, percentages shifted in text', () => {
    expect(roundNoise(0.1 + 0.2, 2)).toBe(0.3);
    expect(roundNoise(1.005, 2)).toBe(1.005);
    expect(ratioCell('8%')).toBe('0.08');
    expect(ratioCell('8.5%')).toBe('0.085');
    expect(ratioCell('0.5%')).toBe('0.005');
    expect(ratioCell('100%')).toBe('1');
    expect(ratioCell('0%')).toBe('0');
    expect(ratioCell(0.16000000000000003)).toBe(0.16);
    expect(ratioCell(' 0.12 ')).toBe('0.12');
  });

  it('reads 8, 8% and 0.08 all as 8 percent, the rule the template states (U20)', () => {
    for (const cell of ['8', '8%', '0.08', 8, 0.08]) expect(ratioCell(cell), String(cell)).toBe(typeof cell === 'number' && cell < 1 ? 0.08 : '0.08');
    expect(ratioCell('16')).toBe('0.16');
    expect(ratioCell(16)).toBe('0.16');
    expect(ratioCell('8.5')).toBe('0.085');
    expect(ratioCell('1')).toBe('0.01'); // 1 and more are percentages; 100% is written with its sign
    expect(ratioCell('0.5')).toBe('0.5'); // below 1: the fraction itself (0.5% is written '0.5%' or 0.005)
    expect(ratioCell('0.5%')).toBe('0.005');
    expect(ratioCell('abc')).toBe('abc'); // left for validation to refuse
    expect(RATIO_IMPORT_RULE).toMatch(/8、8% 或 0\.08/);
  });

  it('renders cells as text without exponents and restores apostrophe-protected formulas', () => {
    expect(cellText(13800138000)).toBe('13800138000');
    expect(cellText(1e20)).toBe('100000000000000000000');
    expect(cellText(12.5)).toBe('12.5');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(null)).toBe('');
    expect(restoreNeutralizedText("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(restoreNeutralizedText("'-5")).toBe("'-5");
    expect(restoreNeutralizedText("it's")).toBe("it's");
  });
});
