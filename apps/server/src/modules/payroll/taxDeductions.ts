import { dynamicDb } from '../../core/db.ts';
import type { FastifyInstance } from 'fastify';
import { OTHER_DEDUCTION_CATEGORIES, SPECIAL_ADDITIONAL_CATEGORIES, taxDeductionResource } from '@app/shared/resources/taxDeduction';
import type { Fen } from '@app/shared/payroll';
import type { Db } from '../../core/db.ts';
import { fieldColumn } from './salaryStore.ts';
import { registerAgentScopedResource } from './agentScope.ts';
import { checkDeductionCaps } from './deductionCaps.ts';
import { refAs } from '../../core/selectAs.ts';

/**
 * 专项附加扣除 by category (issue 10 item 6): the screen and Excel routes (scoped by withholding agent), and the
 * month's sums the calculation uses in place of the staff record's single amount.
 */
export function registerTaxDeductions(app: FastifyInstance): void {
  registerAgentScopedResource(app, taxDeductionResource, {
    forbiddenCode: 'TAX_DEDUCTION_AGENT_FORBIDDEN',
    // the statutory limits in force in the row's month (PB1, PB2)
    check: (values, { req, db, existing }) => checkDeductionCaps(req, db, values, existing),
    templateHints: {
      month: '扣除所属月份，如 2026-03',
      seriousIllness: '大病医疗在年度汇算时扣除，月度预扣不使用',
      childEducationChildren: '不填按1名子女',
      infantCareChildren: '不填按1名子女',
    },
  });
}

/** A worker's deductions of one month at one withholding agent, in fen. */
export interface DeductionSums {
  /** 专项附加扣除 of the monthly withholding. */
  specialAdditional: Fen;
  /** 其他扣除. */
  other: Fen;
}

const D = (f: string) => `${taxDeductionResource.table}.${fieldColumn(taxDeductionResource, f)}`;
export const deductionKey = (dispatchCompany: string | null, idCard: string) => `${dispatchCompany ?? ''}\u0000${idCard.toUpperCase()}`;

/** The category sums of `month` for the given agents and ID cards (one query), by deductionKey. */
export async function loadDeductionSums(db: Db, month: string, agents: readonly string[], idCards: readonly string[]): Promise<Map<string, DeductionSums>> {
  const out = new Map<string, DeductionSums>();
  if (agents.length === 0 || idCards.length === 0) return out;
  const fields = ['dispatchCompany', 'idCard', ...SPECIAL_ADDITIONAL_CATEGORIES, ...OTHER_DEDUCTION_CATEGORIES];
  for (let i = 0; i < idCards.length; i += 1000) {
    // the deduction categories are columns named through the definition (D): the generic view of the table
    const rows = (await dynamicDb(db)
      .selectFrom(taxDeductionResource.table)
      .select(fields.map((f) => refAs(D(f), f)))
      .where(D('month'), '=', month)
      .where(D('dispatchCompany'), 'in', [...agents])
      .where(D('idCard'), 'in', idCards.slice(i, i + 1000))
      .execute()) as Record<string, unknown>[];
    const fen = (r: Record<string, unknown>, f: string) => (r[f] === null || r[f] === undefined ? 0 : Number(r[f]));
    for (const r of rows) {
      out.set(deductionKey(String(r.dispatchCompany), String(r.idCard)), {
        specialAdditional: SPECIAL_ADDITIONAL_CATEGORIES.reduce((s, f) => s + fen(r, f), 0),
        other: OTHER_DEDUCTION_CATEGORIES.reduce((s, f) => s + fen(r, f), 0),
      });
    }
  }
  return out;
}
