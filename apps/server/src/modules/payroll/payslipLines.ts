import type { FastifyInstance, FastifyRequest } from 'fastify';
import { payslipLines as payslipLinesContract } from '@app/shared/contracts/payslips';
import { PAYSLIP_LINE_ITEMS, type PayslipLines, payslipLinesOf, type SalaryLineSource } from '@app/shared/payroll/payslipLines';
import { fenToYuanNumber } from '@app/shared/resource';
import { PAYSLIP_SOURCE, payslipResource } from '@app/shared/resources/payslip';
import { type SalaryFieldName, salaryResource } from '@app/shared/resources/salary';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { SALARY_TABLE, salaryColumn } from './salaryStore.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * A generated payslip's lines (findings PB5, U13): read from the confirmed salary row it was made from, through
 * the shared `PAYSLIP_LINE_ITEMS`, so every pay item of the row (a new one too) is a line and the sheet's totals are
 * the sum of its lines. Imported payslips have no salary row: the sheet shows their own columns.
 */

const S = salaryColumn;
const SALARY_FIELDS = new Set<string>(salaryResource.fields.map((f) => f.name));
/** The row fields the lines read, those the salary table has (an item whose column is not there yet is skipped). */
const LINE_FIELDS = [...new Set([...PAYSLIP_LINE_ITEMS.map((i) => i.field), 'bonusMerged'])].filter((f): f is SalaryFieldName => SALARY_FIELDS.has(f));

const amount = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** One salary row's line source (fen; drivers return bigint columns as strings on PostgreSQL). */
function lineSource(row: Record<string, unknown>): SalaryLineSource {
  const out: Record<string, number | boolean | null> = {};
  for (const f of LINE_FIELDS) out[f] = f === 'bonusMerged' ? row[f] === true || row[f] === 1 || row[f] === '1' : amount(row[f]);
  return out;
}

/** The line sources of a company's month by ID card (upper case); `idCard` narrows to one person. */
export async function loadSalaryLineSources(db: Db, companyId: number, month: string, idCard?: string): Promise<Map<string, SalaryLineSource>> {
  let qb = db
    .selectFrom(SALARY_TABLE)
    .select([refAs(S('idCard'), 'idCard'), ...LINE_FIELDS.map((f) => refAs(S(f), f))])
    .where(S('companyId'), '=', companyId)
    .where(S('month'), '=', month);
  if (idCard) qb = qb.where(S('idCard'), '=', idCard);
  const rows = (await qb.execute()) as Record<string, unknown>[];
  return new Map(rows.map((r) => [String(r.idCard).toUpperCase(), lineSource(r)]));
}

/** The lines of a salary row as the payslip prints them (本期应发 = income lines, 实发 = 本期应发 − deductions). */
export const salaryPayslipLines = (source: SalaryLineSource): PayslipLines => payslipLinesOf(source);

/**
 * GET /api/acPayslip/lines?id=: the lines of one payslip the caller may see (an ordinary employee: only their
 * own, as every payslip endpoint), `{ lines: null }` for an imported one.
 */
export function registerPayslipLines(app: FastifyInstance, isOrdinaryEmployee: (req: FastifyRequest) => boolean, ownIdCards: (req: FastifyRequest) => string[]): void {
  routeContract(app, payslipLinesContract, async (req) => {
    let qb = app.ctx.db.selectFrom(payslipResource.table).select(['id', 'id_card', 'month', 'company_id', 'source', 'benqi', 'shifa']).where('id', '=', req.query.id);
    if (isOrdinaryEmployee(req)) {
      const own = ownIdCards(req);
      qb = own.length ? qb.where('id_card', 'in', own) : qb.where('id', '<', 0);
    }
    const slip = (await qb.executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!slip) throw new AppError('PAYSLIP_NOT_FOUND');
    if (slip.source !== PAYSLIP_SOURCE.generated || slip.company_id === null || slip.company_id === undefined) return { lines: null };
    const sources = await loadSalaryLineSources(app.ctx.db, Number(slip.company_id), String(slip.month), String(slip.id_card).toUpperCase());
    const source = sources.get(String(slip.id_card).toUpperCase());
    if (!source) return { lines: null };
    const { lines, gross, net } = salaryPayslipLines(source);
    // money on the wire is yuan, as every other endpoint
    const yuan = (fen: number) => fenToYuanNumber(fen) as number;
    return { lines: lines.map((l) => ({ ...l, amount: yuan(l.amount) })), gross: yuan(gross), net: yuan(net) };
  });
}
