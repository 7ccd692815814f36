import { z } from 'zod';
import { pageSchema, permissionCodes, sizeSchema } from '../resource/index.ts';
import { staffResource } from '../resources/staff.ts';
import { defineContract } from './contract.ts';
import { SALARY_CODES } from './salary.ts';
import { queryId } from './schemas.ts';
import { codedIssue, codedText } from '../errors/zodIssues.ts';

/**
 * 首页 (U10, W4, M7): what a clerk must act on across every company in the caller's data scope, and the state of
 * this month's salary sheets. Server: apps/server/src/modules/home; screens: apps/web/src/modules/dashboard.
 */
const tags = ['首页'] as const;

/** Who sees the contracts card: whoever may list staff. */
export const HOME_STAFF_CODES = permissionCodes(staffResource, 'list');

export const DEFAULT_WITHIN_DAYS = 30;
export const MAX_WITHIN_DAYS = 366;

const withinDaysSchema = z
  .unknown()
  .optional()
  .transform((raw, ctx) => {
    const v = Array.isArray(raw) ? raw[0] : raw;
    if (v === undefined || v === '') return DEFAULT_WITHIN_DAYS;
    if ((typeof v === 'string' && /^\d{1,3}$/.test(v)) || (typeof v === 'number' && Number.isInteger(v))) {
      const n = Number(v);
      if (n >= 0 && n <= MAX_WITHIN_DAYS) return n;
    }
    ctx.addIssue(codedIssue('HOME_WITHIN_DAYS', { max: MAX_WITHIN_DAYS }, v));
    return z.NEVER;
  })
  .meta({ type: 'integer', minimum: 0, maximum: MAX_WITHIN_DAYS, default: DEFAULT_WITHIN_DAYS, description: '合同结束日在今天起多少天内' });

export const contractDueRow = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string().nullable(),
  staffName: z.string().nullable(),
  idCard: z.string().nullable(),
  phone: z.string().nullable(),
  jobState: z.string().nullable(),
  contractState: z.string().nullable(),
  contractType: z.string().nullable(),
  contractStart: z.string().nullable(),
  contractEnd: z.string(),
  contractWarn: z.string().nullable(),
  contractWarnState: z.string().nullable(),
  daysLeft: z.number().int().meta({ description: '距合同结束的天数，已到期为负数' }),
});
export type ContractDueRow = z.output<typeof contractDueRow>;

const companyCount = z.object({ companyId: z.number().int(), companyName: z.string().nullable(), count: z.number().int() });

/**
 * Employed staff whose contract ends within `withinDays`, whose reminder date has come or who are marked 已提醒,
 * and those whose contract has already ended without a renewal (negative `daysLeft`), soonest first, with counts
 * per company.
 */
export const homeContractsDue = defineContract({
  method: 'GET',
  path: '/api/home/contractsDue',
  auth: HOME_STAFF_CODES,
  summary: '首页：即将到期和已到期未续签的合同（全部可见单位）',
  tags,
  query: z.object({ withinDays: withinDaysSchema, companyId: queryId({ code: 'COMPANY_ID_INVALID' }), page: pageSchema, size: sizeSchema }),
  response: z.object({
    content: z.array(contractDueRow),
    totalElements: z.number().int(),
    expired: z.number().int().meta({ description: '其中已到期未续签的人数' }),
    withinDays: z.number().int(),
    byCompany: z.array(companyCount),
  }),
});

export const unconfirmedMonthRow = z.object({
  companyId: z.number().int(),
  companyName: z.string().nullable(),
  month: z.string(),
  rows: z.number().int(),
  calculated: z.number().int(),
  /** What the clerk does next: 计算 while rows are uncalculated, else 确认. */
  nextStep: z.enum(['calculate', 'confirm']),
});
export type UnconfirmedMonthRow = z.output<typeof unconfirmedMonthRow>;

/** Per company, the salary months generated but not confirmed, oldest first. */
export const homeUnconfirmedSalaryMonths = defineContract({
  method: 'GET',
  path: '/api/home/unconfirmedSalaryMonths',
  auth: SALARY_CODES.select,
  summary: '首页：已生成未确认的工资月份（按单位）',
  tags,
  query: z.object({ companyId: queryId({ code: 'COMPANY_ID_INVALID' }), page: pageSchema, size: sizeSchema }),
  response: z.object({ content: z.array(unconfirmedMonthRow), totalElements: z.number().int() }),
});

export const SALARY_MONTH_STATES = ['notGenerated', 'generated', 'calculated', 'confirmed'] as const;
export type SalaryMonthState = (typeof SALARY_MONTH_STATES)[number];

const salaryMonthCompany = z.object({
  companyId: z.number().int(),
  companyName: z.string().nullable(),
  state: z.enum(SALARY_MONTH_STATES).meta({ description: 'notGenerated 未生成，generated 已生成，calculated 已计算，confirmed 已确认' }),
  rows: z.number().int(),
  calculated: z.number().int(),
});

/** Every company in scope with the state of its salary sheet for a month, and the month's payroll work in counts. */
export const homeSalaryMonth = defineContract({
  method: 'GET',
  path: '/api/home/salaryMonth',
  auth: SALARY_CODES.select,
  summary: '首页：各单位本月工资状态（未生成/已生成/已计算/已确认）与本月工资工作量',
  tags,
  query: z.object({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, codedText('MONTH_PATTERN_INVALID'))
      .optional()
      .meta({ description: '工资月份 yyyy-MM，默认本月（中国时间）' }),
  }),
  response: z.object({
    month: z.string(),
    companies: z.array(salaryMonthCompany),
    counts: z.object({ notGenerated: z.number().int(), generated: z.number().int(), calculated: z.number().int(), confirmed: z.number().int() }),
    work: z.object({
      rowsCalculated: z.number().int().meta({ description: '本月工资中已计算的行数' }),
      rowsConfirmed: z.number().int().meta({ description: '本月已确认单位的工资行数' }),
      filesExported: z.number().int().meta({ description: '本月（中国时间）成功导出的工资报表和工资条文件数' }),
    }),
  }),
});
