import { z } from 'zod';
import { codedText } from '../errors/zodIssues.ts';
import { TemplatePartError, templatePartIssue } from '../errors/templatePartError.ts';

/**
 * The layout a bank template describes (issue 23 item 1; month-close.md §B3), parsed from the template's JSON text
 * fields. Pure: the server writes and reads files with it, the web shows the field names.
 */

/** What a detail column can hold: one of the fixed payee fields, the payer's data, or a constant text. */
export const BANK_FIELDS = {
  seq: '序号',
  account: '收款账号',
  name: '户名',
  amount: '金额',
  idType: '证件类型',
  idNumber: '证件号码',
  bankName: '开户行',
  cnaps: '联行号',
  purpose: '用途',
  remark: '备注',
  phone: '手机号',
  payerAccount: '付款账号',
  payerName: '付款单位名称',
} as const;
export type BankField = keyof typeof BANK_FIELDS;
const fieldKeys = Object.keys(BANK_FIELDS) as [BankField, ...BankField[]];

/** Placeholders of batch header and trailer lines (and of the file name). */
export const BANK_PLACEHOLDERS = ['payerAccount', 'payerName', 'total', 'totalFen', 'count', 'date', 'purpose', 'batchNo', 'month'] as const;

const column = z
  .object({
    title: z.string().max(50),
    field: z.enum(fieldKeys).optional(),
    /** a constant (e.g. a province code or 币种 CNY) instead of a field */
    value: z.string().max(100).optional(),
    /** fixed-width files: the column's width in bytes of the file's encoding (a GBK character counts 2) */
    width: z.number().int().min(1).max(200).optional(),
    align: z.enum(['left', 'right']).optional(),
    /** the padding character of a fixed-width column (space unless stated, e.g. '0' for amounts) */
    pad: z.string().length(1).optional(),
    /** amounts: yuan with 2 decimals (default) or whole fen */
    amountUnit: z.enum(['yuan', 'fen']).optional(),
  })
  .refine((c) => c.field !== undefined || c.value !== undefined, codedText('LAYOUT_COLUMN_FIELD_OR_VALUE'));
export type BankColumn = z.output<typeof column>;

export const bankColumnsSchema = z.array(column).min(1, codedText('LAYOUT_COLUMNS_AT_LEAST_ONE')).max(40, codedText('LAYOUT_COLUMNS_AT_MOST', { max: 40 }));

/** Where the bank's return file (回盘) holds what: 1-based column numbers, lines to skip, the success values. */
export const returnMappingSchema = z.object({
  skipLines: z.number().int().min(0).max(50),
  /** text return files: the delimiter between columns (default: the template's) */
  delimiter: z.string().min(1).max(10).optional(),
  /** the column of the 序号 this file was written with; absent: the bank answers in the file's order (1st detail line = 1) */
  seq: z.number().int().min(1).max(100).optional(),
  account: z.number().int().min(1).max(100),
  amount: z.number().int().min(1).max(100),
  status: z.number().int().min(1).max(100),
  reason: z.number().int().min(1).max(100).optional(),
  successValues: z.array(z.string().min(1).max(50)).min(1, codedText('LAYOUT_SUCCESS_VALUE_REQUIRED')),
  amountUnit: z.enum(['yuan', 'fen']).optional(),
});
export type ReturnMapping = z.output<typeof returnMappingSchema>;

export const headerLinesSchema = z.array(z.string().max(500)).max(20);

export interface BankLayout {
  fileType: 'xls' | 'xlsx' | 'txt' | 'csv';
  encoding: 'GBK' | 'GB18030' | 'UTF-8' | 'UTF-8-BOM';
  delimiter: string;
  titleRow: boolean;
  headerLines: string[];
  columns: BankColumn[];
  trailerLines: string[];
  returnMapping: ReturnMapping;
  payerAccount: string;
  payerName: string;
  purpose: string;
  fileNamePattern: string;
}

/** A bank template part that is wrong (its label and the reason); see TemplatePartError. */
export class BankLayoutError extends TemplatePartError {}

function parseJson<T>(text: unknown, schema: z.ZodType<T>, part: string, empty: T | undefined): T {
  const s = typeof text === 'string' ? text.trim() : '';
  if (!s) {
    if (empty !== undefined) return empty;
    throw new BankLayoutError(part, { code: 'LAYOUT_EMPTY' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(s);
  } catch {
    throw new BankLayoutError(part, { code: 'LAYOUT_NOT_JSON' });
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new BankLayoutError(part, templatePartIssue(r.error));
  return r.data;
}

/** A stored template row (API field names) as a layout; throws BankLayoutError naming the wrong part. */
export function parseBankLayout(t: Record<string, unknown>): BankLayout {
  const fileType = String(t.fileType ?? '');
  if (!['xls', 'xlsx', 'txt', 'csv'].includes(fileType)) throw new BankLayoutError('文件类型', { code: 'LAYOUT_UNSUPPORTED', params: { value: fileType } });
  const encoding = String(t.encoding ?? '');
  if (!['GBK', 'GB18030', 'UTF-8', 'UTF-8-BOM'].includes(encoding)) throw new BankLayoutError('编码', { code: 'LAYOUT_UNSUPPORTED', params: { value: encoding } });
  const delimiter = typeof t.delimiter === 'string' ? t.delimiter : '';
  const columns = parseJson(t.columns, bankColumnsSchema, '明细列', undefined);
  const textFile = fileType === 'txt' || fileType === 'csv';
  if (textFile && !delimiter) {
    const missing = columns.find((c) => !c.width);
    if (missing) throw new BankLayoutError('明细列', { code: 'LAYOUT_FIXED_WIDTH_NEEDS_WIDTH', params: { column: missing.title } });
  }
  const layout: BankLayout = {
    fileType: fileType as BankLayout['fileType'],
    encoding: encoding as BankLayout['encoding'],
    delimiter,
    titleRow: t.titleRow === true || t.titleRow === 1,
    headerLines: parseJson(t.headerLines, headerLinesSchema, '批头行', []),
    columns,
    trailerLines: parseJson(t.trailerLines, headerLinesSchema, '批尾行', []),
    returnMapping: parseJson(t.returnMapping, returnMappingSchema, '回盘映射', undefined),
    payerAccount: typeof t.payerAccount === 'string' ? t.payerAccount : '',
    payerName: typeof t.payerName === 'string' ? t.payerName : '',
    purpose: typeof t.purpose === 'string' && t.purpose ? t.purpose : '工资',
    fileNamePattern: typeof t.fileNamePattern === 'string' && t.fileNamePattern.trim() ? t.fileNamePattern.trim() : '代发工资_{batchNo}',
  };
  if (textFile && !layout.returnMapping.delimiter && !delimiter) throw new BankLayoutError('回盘映射', { code: 'LAYOUT_FIXED_RETURN_NEEDS_DELIMITER' });
  return layout;
}

/** Luhn (mod 10) check of a card number of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Integer fen as yuan text with exactly 2 decimals and no separators ("1234.50", "-0.05"). */
export function fenText(fen: number): string {
  const neg = fen < 0;
  const a = Math.abs(fen);
  return `${neg ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
