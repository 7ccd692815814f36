import { z } from 'zod';
import { permissionCodes } from '../resource/index.ts';
import { staffExtraResource } from '../resources/staffExtra.ts';
import { taxDeductionResource } from '../resources/taxDeduction.ts';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';

/**
 * The lookups behind the payroll input screens (专项附加扣除, 期初累计数据, 员工加班扣款; findings U1, U7): the person
 * picker and the 无法匹配 check list. Both are limited to the companies (and their agents) in the caller's data
 * scope. Server: apps/server/src/modules/payroll/inputChecks.ts; screens: apps/web/src/modules/salary/taxInputs.
 */
const tags = ['薪资输入核对'] as const;

/** Who may pick a person: the holders of the tax inputs' (salary) codes and of the overtime rows' codes. */
const PICKER_CODES = [
  'ACCOUNTSSALARY_ALL',
  'ACCOUNTSSALARY_SELECT',
  'ACCOUNTSSALARY_CREATE',
  'ACCOUNTSSALARY_EDIT',
  'ACCOUNTSSTAFFEXTRA_ALL',
  'ACCOUNTSSTAFFEXTRA_SELECT',
  'ACCOUNTSSTAFFEXTRA_CREATE',
  'ACCOUNTSSTAFFEXTRA_EDIT',
];

/** Each input's check list is for the holders of its screen's list codes. */
export const UNMATCHED_CODES = {
  taxInputs: permissionCodes(taxDeductionResource, 'list'),
  staffExtra: permissionCodes(staffExtraResource, 'list'),
} as const;

// no NUL: PostgreSQL refuses it in a text parameter (a 500 otherwise)
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !s.includes('\u0000'), codedText('FIELD_NUL', { label: '查询条件' }))
    .optional();

export const staffOption = z.object({
  id: z.number().int(),
  staffName: z.string().nullable(),
  idCard: z.string().nullable(),
  phone: z.string().nullable(),
  jobState: z.string().nullable(),
  companyId: z.number().int(),
  companyName: z.string().nullable(),
  dispatchCompany: z.string().nullable(),
});
export type StaffOption = z.output<typeof staffOption>;

/** Up to 20 staff records whose name or ID card contains `q`, with their client company and its withholding agent. */
export const payrollStaffOptions = defineContract({
  method: 'GET',
  path: '/api/payroll/staffOptions',
  auth: PICKER_CODES,
  summary: '选择员工（姓名或身份证号）',
  tags,
  query: z.object({ q: text(50), agent: text(100), companyId: z.coerce.number().int().positive().optional() }),
  response: z.object({ content: z.array(staffOption) }),
});

export const TAX_INPUT_TABLES = ['taxDeduction', 'taxOpening', 'accountsStaffExtra'] as const;
export const UNMATCHED_REASONS = ['AGENT_UNKNOWN', 'STAFF_UNKNOWN', 'STAFF_NOT_AT_AGENT', 'COMPANY_MISSING', 'STAFF_NOT_AT_COMPANY'] as const;
export type UnmatchedReason = (typeof UNMATCHED_REASONS)[number];

export const unmatchedInput = z.object({
  table: z.enum(TAX_INPUT_TABLES),
  id: z.number().int(),
  idCard: z.string().nullable(),
  name: z.string().nullable(),
  /** The withholding agent: the row's own (tax inputs) or its client company's (overtime rows). */
  agent: z.string().nullable(),
  /** The row's month; of an opening balance, its 截至月份. */
  month: z.string().nullable(),
  /** Overtime rows: the client company. */
  companyId: z.number().int().nullable().optional(),
  companyName: z.string().nullable().optional(),
  reason: z.enum(UNMATCHED_REASONS),
});
export type UnmatchedInput = z.output<typeof unmatchedInput>;

/** The input rows no salary row reads, each with its reason (at most 2000; `totalElements` says how many in all). */
export const payrollUnmatchedInputs = defineContract({
  method: 'GET',
  path: '/api/payroll/unmatchedInputs',
  auth: [...UNMATCHED_CODES.taxInputs, ...UNMATCHED_CODES.staffExtra],
  summary: '无法匹配的专项附加扣除、期初累计数据和加班扣款',
  tags,
  query: z.object({
    table: z
      .enum(TAX_INPUT_TABLES)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, codedText('MONTH_FORMAT_INVALID'))
      .optional()
      .or(z.literal('').transform(() => undefined)),
    agent: text(100),
  }),
  response: z.object({ content: z.array(unmatchedInput), totalElements: z.number().int() }),
});
