import type { FastifyInstance, FastifyReply } from 'fastify';
import { fenToYuan } from '@app/shared/payroll';
import { companyResource } from '@app/shared/resources/company';
import { salaryResource } from '@app/shared/resources/salary';
import { AppError } from '../../core/errors.ts';
import { sendXlsx, type XlsxColumn, XlsxFormula } from '../../core/excel/writeXlsx.ts';
import type { CompanyRef } from './companies.ts';
import { fieldColumn, isConfirmed, SALARY_TABLE, salaryColumn } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 工资报表: one company's month as an .xlsx workbook (Office Open XML; the spec's '工资报表.xls' name is
 * served as '工资报表.xlsx' because the content is not BIFF8), one line per staff member, then a 合计 line
 * of SUM formulas (their exact fen sums cached in the cells, so viewers that do not recalculate show them), then
 * how the service fee was counted, who made the report and when. After the employee's side come the employer's
 * contributions, 用工成本 and the client company's 服务费 (U16: the screen shows 用工成本, the workbook did not).
 */

const MONEY = [
  'salary', 'jiaban', 'koukuan', 'gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'deduct', 'tax', 'bonus', 'bonusTax', 'backPay', 'backDeduct', 'severance', 'severanceExempt', 'severanceTax', 'carriedIn', 'siBackSelf', 'realSalary', 'unpaid', 'advanced',
  'employerYanglao', 'employerYiliao', 'employerShiye', 'employerGongshang', 'employerShengyu', 'employerGongjijin', 'siBackCompany', 'employerTotal', 'labourCost',
] as const;
type Money = (typeof MONEY)[number];
type ReportRow = Record<string, string | number | XlsxFormula | null>;
/** Header row 1, staff from row 2: the 合计 row sums rows 2 to n+1. */
const FIRST_DATA_ROW = 2;

const label = (name: string) => salaryResource.fields.find((f) => f.name === name)?.label ?? name;
const S = salaryColumn;

export const SALARY_REPORT_FILE = '工资报表';

/** The download's name: 工资报表_<company>_<month> (characters a file name cannot hold become _). */
export function salaryReportFileName(companyName: string, month: string): string {
  return `${SALARY_REPORT_FILE}_${companyName}_${month}`.replace(/[\\/:*?"<>|]/g, '_');
}

/** A client company's 服务费 setting: 服务费类型 (dictionary fee_type) and 服务费 in fen. */
interface FeeSetting {
  feeType: string;
  fee: number;
}

/**
 * 服务费 of one staff line in fen, or null when the fee is not per line: 按人头 is 服务费 per person and month;
 * 按比例 reads 服务费 as a percentage (5.00 = 5%) of the line's 用工成本 (应发 + 单位缴纳), half-up to the fen;
 * 固定金额 is one amount a month, on the 合计 line only (payroll-rules.md §3.2 item 4).
 */
function lineServiceFee(setting: FeeSetting, labourCostFen: number): number | null {
  if (setting.feeType === '按人头') return setting.fee;
  if (setting.feeType === '按比例') {
    const exact = labourCostFen * setting.fee;
    return Math.sign(exact) * Math.round(Math.abs(exact) / 10_000);
  }
  return null;
}

/** The footer's words on how 服务费 was counted, so the column never stands unexplained. */
function serviceFeeNote(setting: FeeSetting, people: number): string {
  const fee = fenToYuan(setting.fee).toFixed(2);
  if (setting.feeType === '按人头') return `服务费：按人头 ${fee}元/人 × ${people}人`;
  if (setting.feeType === '按比例') return `服务费：按比例 ${fee}% × 各人用工成本合计`;
  if (setting.feeType === '固定金额') return `服务费：固定金额 ${fee}元/月（只计入合计行）`;
  return `服务费：服务费类型“${setting.feeType || '未设置'}”无法计算，未计入`;
}

async function loadFeeSetting(app: FastifyInstance, companyId: number): Promise<FeeSetting> {
  const C = (name: string) => fieldColumn(companyResource, name);
  const row = (await app.ctx.db
    .selectFrom(companyResource.table)
    .select([refAs(C('feeType'), 'feeType'), refAs(C('fee'), 'fee')])
    .where('id', '=', companyId)
    .executeTakeFirst()) as { feeType: string | null; fee: number | string | null } | undefined;
  return { feeType: String(row?.feeType ?? ''), fee: Number(row?.fee ?? 0) };
}

export async function sendSalaryReport(app: FastifyInstance, reply: FastifyReply, company: CompanyRef, month: string, cname: string): Promise<FastifyReply> {
  const db = app.ctx.db;
  const rows = (await db
    .selectFrom(SALARY_TABLE)
    .select([...(['staffName', 'idCard', 'phone', 'calculated'] as const), ...MONEY].map((f) => refAs(S(f), f)))
    .where(S('companyId'), '=', company.id)
    .where(S('month'), '=', month)
    .orderBy(S('id'))
    .execute()) as Record<string, unknown>[];
  if (rows.length === 0) throw new AppError('SALARY_REPORT_NO_ROWS');
  const uncalculated = rows.filter((r) => !(r.calculated === 1 || r.calculated === true || r.calculated === '1')).length;
  if (uncalculated) throw new AppError('SALARY_REPORT_NOT_CALCULATED', { count: uncalculated });
  const confirmed = await isConfirmed(db, company.id, month);
  const fee = await loadFeeSetting(app, company.id);

  const totals = Object.fromEntries(MONEY.map((m) => [m, 0])) as Record<Money, number>;
  let feeTotal = 0;
  const lines: ReportRow[] = rows.map((r, i) => {
    const line: ReportRow = { no: i + 1, companyName: company.companyName, month, staffName: r.staffName as string, idCard: r.idCard as string, phone: (r.phone as string) ?? null };
    for (const m of MONEY) {
      const fen = r[m] === null || r[m] === undefined ? 0 : Number(r[m]);
      totals[m] += fen;
      line[m] = fenToYuan(fen);
    }
    const lineFee = lineServiceFee(fee, r.labourCost === null || r.labourCost === undefined ? 0 : Number(r.labourCost));
    if (lineFee !== null) feeTotal += lineFee;
    line.serviceFee = lineFee === null ? null : fenToYuan(lineFee);
    return line;
  });
  // totals are formulas, so a clerk who corrects a line in Excel sees the sum follow; the exact fen sum is cached
  const sum = (fen: number) => new XlsxFormula((col) => `SUM(${col}${FIRST_DATA_ROW}:${col}${FIRST_DATA_ROW + rows.length - 1})`, fenToYuan(fen));
  const totalLine: ReportRow = { no: '合计', companyName: company.companyName, month, staffName: `共${rows.length}人`, idCard: null, phone: null };
  for (const m of MONEY) totalLine[m] = sum(totals[m]);
  totalLine.serviceFee = fee.feeType === '固定金额' ? fenToYuan(fee.fee) : lineServiceFee(fee, 0) === null ? null : sum(feeTotal);
  const feeNote: ReportRow = { no: serviceFeeNote(fee, rows.length) };
  const footer: ReportRow = {
    no: `制表人：${cname}　制表日期：${new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)}　状态：${confirmed ? '已确认' : '未确认'}`,
  };

  const columns: XlsxColumn<ReportRow>[] = [
    { header: '序号', key: 'no', kind: 'int', width: 8 }, // a number: sorts 1, 2, … 10 and no 'number stored as text' flag
    { header: '单位名称', key: 'companyName', kind: 'text', width: 24 },
    { header: '月份', key: 'month', kind: 'text', width: 10 },
    { header: label('staffName'), key: 'staffName', kind: 'text', width: 12 },
    { header: label('idCard'), key: 'idCard', kind: 'text', width: 22 },
    { header: label('phone'), key: 'phone', kind: 'text', width: 14 },
    ...MONEY.map((m): XlsxColumn<ReportRow> => ({ header: label(m), key: m, kind: 'money', width: 14 })),
    { header: companyResource.fields.find((f) => f.name === 'fee')?.label ?? '服务费', key: 'serviceFee', kind: 'money', width: 12 },
  ];
  return sendXlsx(reply, {
    fileName: salaryReportFileName(company.companyName, month),
    sheetName: `${company.companyName}${month}`.replace(/[[\]:*?/\\]/g, '_').slice(0, 31),
    columns,
    rows: [...lines, totalLine, feeNote, footer],
  });
}
