import { z } from 'zod';
import type { CodedMessage } from '../errors/catalogue.ts';
import { codedIssue } from '../errors/zodIssues.ts';
import { INT_MAX, isValidMonth } from '../resource/index.ts';
import { defineContract } from './contract.ts';

/**
 * 月度工资 (spec §6 payroll flow): generate -> calculate -> confirm a company's month, its open items, 反确认 and
 * its record, the confirm log, the salary report and the cost summary. Money is yuan on the wire (at most two
 * decimals), fen in the database. Server: apps/server/src/modules/payroll; screens: apps/web/src/modules/salary.
 */
const tags = ['月度工资'] as const;

export const SALARY_CODES = {
  select: ['ACCOUNTSSALARY_ALL', 'ACCOUNTSSALARY_SELECT'],
  create: ['ACCOUNTSSALARY_ALL', 'ACCOUNTSSALARY_CREATE'],
  edit: ['ACCOUNTSSALARY_ALL', 'ACCOUNTSSALARY_EDIT'],
  unconfirm: ['ACCOUNTSSALARY_ALL', 'ACCOUNTSSALARY_UNCONFIRM'],
} as const;

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** The current month in China (UTC+8), 'YYYY-MM'. */
export function currentChinaMonth(now = Date.now()): string {
  return new Date(now + CHINA_OFFSET_MS).toISOString().slice(0, 7);
}

/** A refused `{companyId, month}`: the message, the member at fault and that member's own message (catalogue codes). */
export interface CompanyMonthProblem {
  message: CodedMessage;
  field: 'companyId' | 'month';
  fieldMessage: CodedMessage;
}

/**
 * The checks of a `{companyId, month}` (body or query string) of the payroll steps: a company id (number or
 * digits, 1..2^31-1) and a month YYYY-MM that is not after the current one (China time). One reading for the
 * contracts below and the server's own parsing (apps/server/src/modules/payroll/months.ts).
 */
export function readCompanyMonth(raw: unknown, now = Date.now()): { companyId: number; month: string } | CompanyMonthProblem {
  const b = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const problem = (field: CompanyMonthProblem['field'], message: CodedMessage, fieldMessage = message): CompanyMonthProblem => ({ message, field, fieldMessage });
  const rawId = b.companyId;
  if (rawId === undefined || rawId === null || rawId === '') return problem('companyId', { code: 'SALARY_COMPANY_REQUIRED' });
  // only a number or a digit string: Number()/String() of an object such as {"toString":"x"} throws
  if (typeof rawId !== 'number' && typeof rawId !== 'string') return problem('companyId', { code: 'COMPANY_ID_INVALID' });
  const companyId = Number(rawId);
  if (!/^\d{1,10}$/.test(String(rawId)) || !Number.isSafeInteger(companyId) || companyId <= 0 || companyId > INT_MAX) return problem('companyId', { code: 'COMPANY_ID_INVALID' });
  const month = typeof b.month === 'string' ? b.month.trim() : '';
  if (!month) return problem('month', { code: 'FIELD_CHOOSE', params: { label: '月份' } });
  if (!isValidMonth(month)) return problem('month', { code: 'MONTH_FORMAT_INVALID' });
  const current = currentChinaMonth(now);
  if (month > current) return problem('month', { code: 'SALARY_FUTURE_MONTH', params: { month, current } }, { code: 'SALARY_FUTURE_MONTH_FIELD' });
  return { companyId, month };
}

/** What the web sends as a company's month (the screens add the company's name, which the server ignores). */
export interface CompanyMonthInput {
  companyId: number | string;
  month: string;
  companyName?: string;
}

const companyMonthDoc = {
  type: 'object',
  required: ['companyId', 'month'],
  properties: { companyId: { type: 'integer', minimum: 1, maximum: INT_MAX }, month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' } },
};

/**
 * `{companyId, month}` of a body or query string, checked by readCompanyMonth with its messages (the issue on the
 * member at fault). Unknown members pass (the screens send the company's name along). The declared input type is
 * what the screens send; the runtime accepts any value and refuses with the messages above.
 */
export const companyMonthSchema = z
  .unknown()
  .transform((raw, ctx) => {
    const read = readCompanyMonth(raw);
    if ('companyId' in read) return read;
    ctx.addIssue({ ...codedIssue(read.message.code, read.message.params, raw), path: [read.field] });
    return z.NEVER;
  })
  .meta(companyMonthDoc) as unknown as z.ZodType<{ companyId: number; month: string }, CompanyMonthInput>;

/**
 * The body of 确认: `{companyId, month}` with their checks, and `acknowledgeWarnings` (the dialog's tick "我已核对以上
 * N 项，仍然确认"): only `true` acknowledges, anything else leaves the open items blocking.
 */
export const confirmBodySchema = z
  .unknown()
  .transform((raw, ctx) => {
    const parsed = companyMonthSchema.safeParse(raw);
    if (!parsed.success) {
      // passed on with their catalogue code (companyMonthSchema raises custom issues only)
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, input: raw, path: issue.path, params: issue.code === 'custom' ? issue.params : undefined });
      return z.NEVER;
    }
    const acknowledgeWarnings = !!raw && typeof raw === 'object' && (raw as Record<string, unknown>).acknowledgeWarnings === true;
    return { ...parsed.data, acknowledgeWarnings };
  })
  .meta({
    type: 'object',
    required: ['companyId', 'month'],
    properties: {
      companyId: { type: 'integer', minimum: 1 },
      month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
      acknowledgeWarnings: { type: 'boolean', description: '已核对计算提示，仍然确认' },
    },
  }) as unknown as z.ZodType<{ companyId: number; month: string; acknowledgeWarnings: boolean }, CompanyMonthInput & { acknowledgeWarnings?: boolean }>;

export const generateSalary = defineContract({
  method: 'POST',
  path: '/api/accountsSalary/generator',
  auth: SALARY_CODES.create,
  summary: '生成月度工资',
  log: '生成月度工资',
  tags,
  body: companyMonthSchema,
  response: z.object({
    message: z.string(),
    /** Rows of the month afterwards. */
    total: z.number().int(),
    /** The month had rows before (a regenerate): the message then says what changed. */
    regenerated: z.boolean(),
    /** Workers who had no row and got one. */
    added: z.number().int(),
    /** Generated rows of workers no longer payable, removed. */
    removed: z.number().int(),
    /** Rows whose hand-edited 加班费/扣款 were kept. */
    keptEdits: z.number().int(),
    /** Hand-added rows kept as they were. */
    keptManualRows: z.number().int(),
  }),
});

/** Where a company's month stands: the screen's step indicator and its question before a regenerate (P5). */
export const monthSummary = z.object({
  rows: z.number().int(),
  calculated: z.number().int(),
  editedRows: z.number().int(),
  manualRows: z.number().int(),
  confirmed: z.boolean(),
  /** Sums over the month's rows in yuan (calculated figures; 0 where not calculated). */
  gross: z.number(),
  employerTotal: z.number(),
  labourCost: z.number(),
});
export type MonthSummary = z.output<typeof monthSummary>;

export const salaryMonthSummary = defineContract({
  method: 'GET',
  path: '/api/accountsSalary/summary',
  auth: SALARY_CODES.select,
  summary: '月份进度',
  tags,
  query: companyMonthSchema,
  response: monthSummary,
});

/** One open item of a month (what 计算 could not use): packages/shared/src/payroll/calculationReport.ts. */
export const calculationReportItem = z.object({
  kind: z.enum(['rowNotCalculated', 'taxDeduction', 'taxOpening', 'staffExtra', 'unrecordedMonths']),
  staffName: z.string().nullable(),
  idCard: z.string(),
  month: z.string(),
  months: z.number().int().nullable(),
  savedUnder: z.string().nullable(),
  field: z.string().nullable(),
  code: z.string(),
  reason: z.string(),
});

const unrecordedMonth = z.object({ idCard: z.string(), staffName: z.string().nullable(), months: z.number().int() });

export const calculateSalary = defineContract({
  method: 'POST',
  path: '/api/accountsSalary/calculate',
  auth: SALARY_CODES.edit,
  summary: '计算月度工资',
  log: '计算月度工资',
  tags,
  body: companyMonthSchema,
  response: z.object({
    message: z.string(),
    count: z.number().int(),
    /** Rows left uncalculated (their reasons are items of `report`). */
    notCalculated: z.number().int(),
    /** Workers with months employed this year but no salary recorded. */
    unrecordedMonths: z.array(unrecordedMonth),
    report: z.array(calculationReportItem),
  }),
});

/** The month's open items as they stand now: the screen's lasting alert and row tags, and the confirm dialog. */
export const salaryCalculationReport = defineContract({
  method: 'GET',
  path: '/api/accountsSalary/report',
  auth: SALARY_CODES.select,
  summary: '计算提示（未使用的输入、未录入工资的任职月份）',
  tags,
  query: companyMonthSchema,
  response: z.object({ items: z.array(calculationReportItem) }),
});

export const confirmSalary = defineContract({
  method: 'POST',
  path: '/api/accountsSalary/confirm',
  auth: SALARY_CODES.edit,
  summary: '确认月度工资',
  log: '确认月度工资',
  tags,
  body: confirmBodySchema,
  response: z.object({ message: z.string() }),
});

export const UNCONFIRM_REASON_MAX = 500;

/**
 * 反确认 of a confirmed month, with a reason, under its own permission. The handler checks the members with their
 * messages (the company's month as readCompanyMonth, the reason 1..500 characters); declared for the API document.
 */
export const unconfirmSalary = defineContract({
  method: 'POST',
  path: '/api/accountsSalary/unconfirm',
  auth: SALARY_CODES.unconfirm,
  summary: '反确认月度工资',
  log: '反确认月度工资',
  tags,
  body: z.looseObject({ companyId: z.unknown().optional(), month: z.unknown().optional(), reason: z.unknown().optional() }) as unknown as z.ZodType<
    Record<string, unknown>,
    { companyId: number | string; month: string; reason: string }
  >,
  response: z.object({ message: z.string(), rows: z.number().int(), payslipsWithdrawn: z.number().int() }),
});
