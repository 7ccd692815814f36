import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { BankLayoutError, fenText, luhnValid, parseBankLayout } from '@app/shared/payout/bankLayout';
import { checkCells, type PayoutFileRow, writePayoutFile } from '../src/modules/payout/bankFile.ts';
import { readReturnFile } from '../src/modules/payout/returnFile.ts';

/** The bank-file writer (issue 23 item 1): byte-exact text in GBK/GB18030/UTF-8, workbooks read back cell by cell. */

const rows: PayoutFileRow[] = [
  { seq: 1, account: '6222020200112233445', name: '张三', amountFen: 812345, idNumber: '110101199003070113', cnaps: '01' },
  { seq: 2, account: '6217000010001234567', name: '李四', amountFen: 500005, idNumber: '110101198805170125', cnaps: '102100099996' },
];
const batch = { batchNo: 'P20261100007', month: '2026-11', date: '20261127', totalFen: 1312350, count: 2 };

const boc = {
  fileType: 'txt',
  encoding: 'GBK',
  delimiter: '|',
  titleRow: false,
  payerAccount: '123456789012',
  purpose: '工资',
  headerLines: JSON.stringify(['{batchNo}||{payerAccount}||CNY|{total}|{count}|{purpose}|{date}|']),
  columns: JSON.stringify([
    { title: '收款行行号', field: 'cnaps' },
    { title: '金额', field: 'amount' },
    { title: '收款人账号', field: 'account' },
    { title: '收款人姓名', field: 'name' },
    { title: '证件类型', value: '01' },
    { title: '证件号', field: 'idNumber' },
    { title: '用途', field: 'purpose' },
  ]),
  returnMapping: JSON.stringify({ skipLines: 1, account: 3, amount: 2, status: 8, reason: 9, successValues: ['成功'] }),
};

describe('bank payroll files', () => {
  it('writes a GBK text file byte for byte and reads its return file back', async () => {
    const layout = parseBankLayout(boc);
    const { bytes, extension } = writePayoutFile(layout, batch, rows);
    expect(extension).toBe('txt');
    const expected =
      'P20261100007||123456789012||CNY|13123.50|2|工资|20261127|\r\n' +
      '01|8123.45|6222020200112233445|张三|01|110101199003070113|工资\r\n' +
      '102100099996|5000.05|6217000010001234567|李四|01|110101198805170125|工资\r\n';
    expect(bytes.equals(iconv.encode(expected, 'gbk'))).toBe(true);
    // 张 in GBK is D5 C5: the file is not UTF-8
    expect(bytes.includes(Buffer.from([0xd5, 0xc5]))).toBe(true);
    expect(writePayoutFile(layout, batch, rows).bytes.equals(bytes)).toBe(true);

    // the bank answers with the lines and a status and reason appended
    const answer = iconv.encode(
      `${expected.split('\r\n')[0]}\r\n${expected.split('\r\n')[1]}|成功|\r\n${expected.split('\r\n')[2]}|失败|户名不符\r\n`,
      'gbk',
    );
    const lines = await readReturnFile(answer, layout);
    expect(lines.map((l) => [l.seq, l.account, l.amountFen, l.success, l.reason])).toEqual([
      ['1', '6222020200112233445', 812345, true, ''],
      ['2', '6217000010001234567', 500005, false, '户名不符'],
    ]);
  });

  it('pads fixed-width columns by bytes of the encoding and refuses what does not fit or cannot be encoded', () => {
    const fixed = parseBankLayout({
      ...boc,
      delimiter: '',
      headerLines: '',
      columns: JSON.stringify([
        { title: '序号', field: 'seq', width: 5, align: 'right', pad: '0' },
        { title: '账号', field: 'account', width: 22 },
        { title: '户名', field: 'name', width: 8 },
        { title: '金额', field: 'amount', amountUnit: 'fen', width: 14, align: 'right', pad: '0' },
      ]),
      returnMapping: JSON.stringify({ skipLines: 0, delimiter: ',', account: 2, amount: 4, status: 5, successValues: ['0'] }),
    });
    const text = iconv.decode(writePayoutFile(fixed, batch, rows).bytes, 'gbk');
    // 张三 is 4 bytes in GBK: 4 spaces fill the 8-byte column
    expect(text.split('\r\n')[0]).toBe('000016222020200112233445   张三    00000000812345');
    expect(iconv.encode(text.split('\r\n')[0], 'gbk').length).toBe(5 + 22 + 8 + 14);
    const rare = [{ ...rows[0], name: '王𬌗' }, { ...rows[1], name: '欧阳娜娜娜' }];
    expect(checkCells(fixed, rare)).toEqual([
      { seq: 1, column: '户名', reason: 'notEncodable' },
      { seq: 2, column: '户名', reason: 'tooWide' },
    ]);
    // GB18030 has the rare character (4 bytes)
    const gb18030 = parseBankLayout({ ...boc, encoding: 'GB18030' });
    expect(checkCells(gb18030, [rare[0]])).toEqual([]);
    const bytes = writePayoutFile(gb18030, batch, [rare[0]]).bytes;
    expect(iconv.decode(bytes, 'gb18030')).toContain('|王𬌗|');
  });

  it('writes a UTF-8 CSV with BOM, quoting a value that holds the delimiter', () => {
    const csv = parseBankLayout({
      fileType: 'csv',
      encoding: 'UTF-8-BOM',
      delimiter: ',',
      titleRow: true,
      columns: JSON.stringify([
        { title: '序号', field: 'seq' },
        { title: '收款账号', field: 'account' },
        { title: '户名', field: 'name' },
        { title: '金额', field: 'amount' },
        { title: '开户行', field: 'bankName' },
      ]),
      returnMapping: JSON.stringify({ skipLines: 1, seq: 1, account: 2, amount: 4, status: 6, successValues: ['成功'] }),
    });
    const bytes = writePayoutFile(csv, batch, [{ ...rows[0], bankName: '工行,北京分行' }]).bytes;
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(bytes.subarray(3).toString('utf8')).toBe('序号,收款账号,户名,金额,开户行\r\n1,6222020200112233445,张三,8123.45,"工行,北京分行"\r\n');
  });

  it('writes an ICBC-style xls whose cells read back exactly (accounts as text, amounts with 2 decimals)', async () => {
    const xls = parseBankLayout({
      fileType: 'xls',
      encoding: 'GBK',
      delimiter: '',
      titleRow: true,
      payerAccount: '0200001234567890123',
      payerName: '北京华派人力资源有限公司',
      purpose: '工资及退休金',
      columns: JSON.stringify([
        { title: '付款账号', field: 'payerAccount' },
        { title: '付款账号名称', field: 'payerName' },
        { title: '收款账号', field: 'account' },
        { title: '收款账号名称', field: 'name' },
        { title: '金额', field: 'amount' },
        { title: '汇款用途', field: 'purpose' },
      ]),
      returnMapping: JSON.stringify({ skipLines: 1, account: 3, amount: 5, status: 7, reason: 8, successValues: ['成功'] }),
    });
    const { bytes, extension } = writePayoutFile(xls, batch, rows);
    expect(extension).toBe('xls');
    expect(bytes.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))).toBe(true);
    expect(writePayoutFile(xls, batch, rows).bytes.equals(bytes)).toBe(true);
    const wb = XLSX.read(bytes, { type: 'buffer', cellNF: true });
    const sheet = wb.Sheets[wb.SheetNames[0]];
    const aoa = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(aoa).toEqual([
      ['付款账号', '付款账号名称', '收款账号', '收款账号名称', '金额', '汇款用途'],
      ['0200001234567890123', '北京华派人力资源有限公司', '6222020200112233445', '张三', 8123.45, '工资及退休金'],
      ['0200001234567890123', '北京华派人力资源有限公司', '6217000010001234567', '李四', 5000.05, '工资及退休金'],
    ]);
    expect(sheet.C2.t).toBe('s');
    expect(sheet.E2.z).toBe('0.00');

    // a return workbook: the same columns plus 状态 and 原因
    const back = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(back, XLSX.utils.aoa_to_sheet([[...aoa[0], '状态', '原因'], [...aoa[1], '成功', ''], [...aoa[2], '失败', '账号不存在']]), 'S');
    const lines = await readReturnFile(XLSX.write(back, { type: 'buffer', bookType: 'biff8' }) as Buffer, xls);
    expect(lines.map((l) => [l.seq, l.account, l.amountFen, l.success, l.reason])).toEqual([
      ['1', '6222020200112233445', 812345, true, ''],
      ['2', '6217000010001234567', 500005, false, '账号不存在'],
    ]);
  });

  it('names the wrong part of a template', () => {
    expect(() => parseBankLayout({ ...boc, columns: '[{"title":"x"}]' })).toThrow(BankLayoutError);
    expect(() => parseBankLayout({ ...boc, columns: 'not json' })).toThrow('明细列: 不是合法的JSON');
    expect(() => parseBankLayout({ ...boc, fileType: 'pdf' })).toThrow('文件类型');
    expect(() => parseBankLayout({ ...boc, delimiter: '', headerLines: '' })).toThrow('width');
  });

  it('checks Luhn and formats fen exactly', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(fenText(5)).toBe('0.05');
    expect(fenText(1312350)).toBe('13123.50');
  });
});
