import * as XLSX from '@e965/xlsx';
import { type CellValue, type SheetRow, type WorkbookRows, WorkbookFormatError } from './types.ts';

/**
 * Legacy .xls (BIFF, in an OLE compound file) through SheetJS (@e965/xlsx, the maintained build; never the
 * unmaintained `xlsx` package). Such files hold at most 65,536 rows, so reading them whole is fine.
 * Formula cells give their cached value; dates stay serial numbers (the pipeline knows which columns are
 * dates and converts them, independent of the cell's number format).
 */

const ERROR_TEXT: Record<number, string> = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A', 43: '#GETTING_DATA' };

function toCellValue(cell: XLSX.CellObject | undefined): CellValue {
  if (!cell) return null;
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : String(cell.v ?? '');
    case 'n':
      return typeof cell.v === 'number' ? cell.v : null;
    case 'b':
      return !!cell.v;
    case 'e':
      return ERROR_TEXT[Number(cell.v)] ?? '#ERROR';
    case 'd':
      return cell.v instanceof Date ? cell.v.toISOString() : String(cell.v);
    default:
      return null;
  }
}

/** Read the first visible sheet of any workbook SheetJS understands (used for .xls, and by tests as a cross-check). */
export function readWithSheetJs(buf: Buffer, format: 'xls' | 'xlsx' = 'xls'): WorkbookRows {
  let wb: XLSX.WorkBook;
  try {
    wb = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false, cellNF: false, cellStyles: false });
  } catch (err) {
    const msg = String((err as Error)?.message ?? err);
    if (/password|encrypt/i.test(msg)) throw new WorkbookFormatError('文件已加密，请先取消密码保护');
    throw new WorkbookFormatError('上传文件只能是 xls/xlsx 格式!');
  }
  const sheetsMeta = wb.Workbook?.Sheets ?? [];
  const visible = wb.SheetNames.find((_n, i) => !sheetsMeta[i]?.Hidden) ?? wb.SheetNames[0];
  if (!visible) throw new WorkbookFormatError('工作簿中没有工作表');
  const ws = wb.Sheets[visible] as XLSX.WorkSheet & { '!data'?: (XLSX.CellObject | undefined)[][] };
  const data = ws['!data'] ?? [];
  const date1904 = !!wb.Workbook?.WBProps?.date1904;
  function* rows(): Generator<SheetRow> {
    for (let r = 0; r < data.length; r++) {
      const src = data[r];
      if (!src) continue;
      const cells: CellValue[] = [];
      for (let c = 0; c < src.length; c++) {
        const v = toCellValue(src[c]);
        if (v === null) continue;
        while (cells.length < c) cells.push(null);
        cells[c] = v;
      }
      yield { row: r + 1, cells };
    }
  }
  return { format, sheetName: visible, date1904, rows: toAsync(rows()) };
}

async function* toAsync<T>(it: Iterable<T>): AsyncGenerator<T> {
  yield* it;
}
