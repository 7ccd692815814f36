import { z } from 'zod';
import { permissionCodes, schemaOf } from '../resource/index.ts';
import { payslipResource } from '../resources/payslip.ts';
import { defineContract } from './contract.ts';
import { companyMonthSchema } from './salary.ts';
import { queryText } from './schemas.ts';

/**
 * 工资条 beyond its generic list and form (spec §6): generation from a confirmed salary month, the printable lines
 * of one payslip, the Excel exports (all, the resource screen's, one person's), the import and its template. An
 * ordinary employee (job 普通员工) sees only their own payslips on every route and changes nothing (the handlers
 * enforce it). Server: apps/server/src/modules/payroll/payslipRoutes.ts; screens: apps/web/src/modules/salary.
 */
const tags = [payslipResource.label] as const;

export const PAYSLIP_CODES = {
  list: permissionCodes(payslipResource, 'list'),
  export: permissionCodes(payslipResource, 'export'),
  import: permissionCodes(payslipResource, 'import'),
  /** The import template: whoever may import or export. */
  template: [...new Set([...permissionCodes(payslipResource, 'import'), ...permissionCodes(payslipResource, 'export')])],
} as const;

/** Payslips of a confirmed company month from its salary rows; earlier generated ones of the month are replaced. */
export const generatePayslips = defineContract({
  method: 'POST',
  path: '/api/acPayslip/generate',
  auth: PAYSLIP_CODES.import,
  summary: '由已确认的月度工资生成工资条',
  log: '生成工资条',
  tags,
  body: companyMonthSchema,
  response: z.object({ message: z.string() }),
});

/** One line of a printed payslip (packages/shared/src/payroll/payslipLines.ts), its amount in yuan. */
export const payslipLine = z.object({
  name: z.string(),
  label: z.string(),
  section: z.enum(['income', 'deduction', 'info']),
  amount: z.number(),
  /** Why a figure reads 0 (a taxable income below zero). */
  note: z.literal('belowDeductions').optional(),
});
export type PayslipSheetLine = z.output<typeof payslipLine>;

/** The lines of one payslip the caller may see; `lines: null` for an imported one (its own columns are the sheet). */
export const payslipLines = defineContract({
  method: 'GET',
  path: '/api/acPayslip/lines',
  auth: PAYSLIP_CODES.list,
  summary: '工资条明细行',
  tags,
  query: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
  response: z.object({
    lines: z.array(payslipLine).nullable(),
    /** 本期应发 and 实发 in yuan (absent with `lines: null`). */
    gross: z.number().optional(),
    net: z.number().optional(),
  }),
});

const exportQuery = schemaOf(payslipResource, 'query');

/** The filtered payslips as .xlsx (the payslip screen's export). */
export const exportAllPayslips = defineContract({
  method: 'GET',
  path: '/api/export/acPayslipAll',
  auth: PAYSLIP_CODES.export,
  summary: '导出工资条（.xlsx）',
  log: '导出工资条',
  tags,
  query: exportQuery,
});

/** The same rows under the generic resource screens' export path (/api/export/<name>). */
export const exportPayslips = defineContract({
  method: 'GET',
  path: '/api/export/acPayslip',
  auth: PAYSLIP_CODES.export,
  summary: '导出工资条（.xlsx）',
  log: '导出工资条',
  tags,
  query: exportQuery,
});

/** One person's payslips (an ordinary employee: their own), only the items they carry. */
export const exportOnePayslip = defineContract({
  method: 'GET',
  path: '/api/export/acPayslipOne',
  auth: PAYSLIP_CODES.export,
  summary: '导出个人工资条（.xlsx）',
  log: '导出个人工资条',
  tags,
  query: (exportQuery as z.ZodObject).extend({ idCard: queryText({ code: 'ID_CARD_INVALID' }, 18) }),
});

/** The import template (.xlsx); not logged (a blank sheet). */
export const payslipTemplate = defineContract({
  method: 'POST',
  path: '/api/download/acPayslip',
  auth: PAYSLIP_CODES.template,
  summary: '工资条导入模板（.xlsx）',
  log: '',
  tags,
});

const importProblem = z.object({ row: z.number().int(), column: z.string(), message: z.string(), digitLoss: z.literal(true).optional() });

/** A payslip file (multipart field `file`): every row checked before any is written. */
export const importPayslips = defineContract({
  method: 'POST',
  path: '/api/import/acPayslip',
  auth: PAYSLIP_CODES.import,
  summary: '导入工资条（multipart 字段 file）',
  log: '导入工资条',
  tags,
  response: z.object({
    total: z.number().int(),
    inserted: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    /** Generated payslips an imported row replaced. */
    replaced: z.number().int(),
    failed: z.number().int(),
    errors: z.array(z.unknown()),
    warnings: z.array(importProblem),
  }),
});
