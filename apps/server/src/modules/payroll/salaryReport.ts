import type { FastifyInstance, FastifyReply } from 'fastify';
import { fenToYuan } from '@app/shared/payroll';
import { salaryResource } from '@app/shared/resources/salary';
import { badRequest } from '../../core/errors.ts';
import { sendXlsx, type XlsxColumn } from '../../core/excel/writeXlsx.ts';
import type { CompanyRef } from './companies.ts';
import { fieldColumn, isConfirmed, SALARY_TABLE } from './salaryStore.ts';

/**
 * 工资报表: one company's month as an .xlsx workbook (Office Open XML; the spec's '工资报表.xls' name is
 * served as '工资报表.xlsx' because the content is not BIFF8), one line per staff member, then a 合计 line
 * with the exact fen sums of every money column, then who made the report and when.
 */

const MONEY = ['salary', 'jiaban', 'koukuan', 'gross', 'yanglao', 'yiliao', 'shiye', 'gongjijin', 'fiveOne', 'deduct', 'tax', 'bonus', 'bonusTax', 'backPay', 'backDeduct', 'severance', 'severanceExempt', 'severanceTax', 'carriedIn', 'realSalary', 'unpaid', 'advanced'] as const;
type Money = (typeof MONEY)[number];
type ReportRow = Record<string, string | number | null>;

const label = (name: string) => salaryResource.fields.find((f) => f.name === name)?.label ?? name;
const S = (name: string) => fieldColumn(salaryResource, name);

export const SALARY_REPORT_FILE = '工资报表';

export async function sendSalaryReport(app: FastifyInstance, reply: FastifyReply, company: CompanyRef, month: string, cname: string): Promise<FastifyReply> {
  const db = app.ctx.db;
  const rows = (await db
    .selectFrom(SALARY_TABLE)
    .select([...['staffName', 'idCard', 'phone', 'calculated'], ...MONEY].map((f) => `${S(f)} as ${f}`) as never)
    .where(S('companyId'), '=', company.id)
    .where(S('month'), '=', month)
    .orderBy(S('id'))
    .execute()) as Record<string, unknown>[];
  if (rows.length === 0) throw badRequest('该单位本月没有工资数据，无法导出报表');
  const uncalculated = rows.filter((r) => !(r.calculated === 1 || r.calculated === true || r.calculated === '1')).length;
  if (uncalculated) throw badRequest(`有${uncalculated}条工资数据尚未计算，请先计算后再导出报表`);
  const confirmed = await isConfirmed(db, company.id, month);

  const totals = Object.fromEntries(MONEY.map((m) => [m, 0])) as Record<Money, number>;
  const lines: ReportRow[] = rows.map((r, i) => {
    const line: ReportRow = { no: i + 1, companyName: company.companyName, month, staffName: r.staffName as string, idCard: r.idCard as string, phone: (r.phone as string) ?? null };
    for (const m of MONEY) {
      const fen = r[m] === null || r[m] === undefined ? 0 : Number(r[m]);
      totals[m] += fen;
      line[m] = fenToYuan(fen);
    }
    return line;
  });
  const totalLine: ReportRow = { no: '合计', companyName: company.companyName, month, staffName: `共${rows.length}人`, idCard: null, phone: null };
  for (const m of MONEY) totalLine[m] = fenToYuan(totals[m]);
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
  ];
  return sendXlsx(reply, { fileName: SALARY_REPORT_FILE, sheetName: `${company.companyName}${month}`.replace(/[[\]:*?/\\]/g, '_').slice(0, 31), columns, rows: [...lines, totalLine, footer] });
}
