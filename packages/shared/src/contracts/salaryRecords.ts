import { z } from 'zod';
import { schemaOf } from '../resource/index.ts';
import { confirmLogResource } from '../resources/salary.ts';
import { defineContract } from './contract.ts';
import { SALARY_CODES } from './salary.ts';

/**
 * What the payroll flow leaves behind and reports (spec §6): the confirm log (one row per confirmed company month),
 * the 反确认 audit trail, the cost summary per client company and the salary report file. Money in yuan.
 */
const tags = ['月度工资'] as const;

/** The confirmation log: filters, paging and sorting of a resource list, the caller's companies only. */
export const listConfirmLog = defineContract({
  method: 'GET',
  path: '/api/accountsConfirmLog',
  auth: SALARY_CODES.select,
  summary: `${confirmLogResource.label}列表`,
  tags: [confirmLogResource.label],
  query: schemaOf(confirmLogResource, 'query'),
  response: z.object({ content: z.array(schemaOf(confirmLogResource, 'row')), totalElements: z.number().int() }),
});
export type ConfirmLogRow = z.output<typeof listConfirmLog.response>['content'][number];

/** The figures a 反确认 row keeps per salary row, money in yuan (`before` as confirmed, `after` as confirmed again). */
const correctionFigures = z.array(z.record(z.string(), z.unknown())).nullable();

/** The audit trail of a company's month (or of all visible companies), newest first, at most 200 rows. */
export const listSalaryCorrections = defineContract({
  method: 'GET',
  path: '/api/accountsSalary/corrections',
  auth: SALARY_CODES.select,
  summary: '反确认记录',
  tags,
  // checked by the handler (readCompanyMonth) when either is given; declared for the API document
  query: z.looseObject({ companyId: z.string().max(10).optional(), month: z.string().max(7).optional() }),
  response: z.array(
    z.object({
      id: z.number().int(),
      companyId: z.number().int(),
      companyName: z.string().nullable(),
      month: z.string(),
      reason: z.string().nullable(),
      username: z.string().nullable(),
      cname: z.string().nullable(),
      rowCount: z.number().int(),
      payslipsWithdrawn: z.number().int(),
      createTime: z.string().nullable(),
      reconfirmedBy: z.string().nullable(),
      reconfirmTime: z.string().nullable(),
      before: correctionFigures,
      after: correctionFigures,
    }),
  ),
});

const companyCost = z.object({
  companyId: z.number().int(),
  companyName: z.string(),
  rows: z.number().int(),
  gross: z.number(),
  employerTotal: z.number(),
  labourCost: z.number(),
  confirmed: z.boolean(),
});
export type CompanyCost = z.output<typeof companyCost>;

/**
 * 用工成本 per client company for a month (issue 10 item 9): 应发, the employer's contributions and their sum over
 * the companies the caller sees, with a totals row; months not yet calculated count 0 for the figures.
 */
export const salaryCostSummary = defineContract({
  method: 'GET',
  path: '/api/accountsSalary/costSummary',
  auth: SALARY_CODES.select,
  summary: '各单位用工成本',
  tags,
  // checked by the handler (required, YYYY-MM, not in the future) with its messages; declared for the API document
  query: z.looseObject({ month: z.string().max(7).optional().meta({ description: 'YYYY-MM' }) }),
  response: z.object({
    month: z.string(),
    companies: z.array(companyCost),
    total: z.object({ rows: z.number().int(), gross: z.number(), employerTotal: z.number(), labourCost: z.number() }),
  }),
});

/** 工资报表 of a company's month (.xlsx), signed with the caller's Chinese name (checked by the handler). */
export const exportSalaryReport = defineContract({
  method: 'POST',
  path: '/api/export/accountsSalary',
  auth: SALARY_CODES.select,
  summary: '工资报表（.xlsx）',
  log: '导出工资报表',
  tags,
  body: z.looseObject({ companyId: z.unknown().optional(), month: z.unknown().optional(), cname: z.unknown().optional() }).optional() as unknown as z.ZodType<
    Record<string, unknown> | undefined,
    { companyId?: number | string; month?: string; cname?: string } | undefined
  >,
});
