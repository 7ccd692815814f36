import { PayrollInputError } from './errors.ts';
import { annualBonusTax, calculateCumulativeWithholding, labourRemunerationTax } from './incomeTax.ts';
import {
  byCompanyThenId,
  carriedMonth,
  checkSeparateBonus,
  isLabour,
  keyOf,
  monthsEmployed,
  openingMonth,
  previousMonthsOf,
  splitTax,
  who,
} from './monthLedger.ts';
import { type SeveranceFigures, severanceOf } from './payItems.ts';
import { type NetPay, type PersonFigures, personalFigures, rowFigures, separateBonusOf, settleNetPay } from './rowFigures.ts';
import { FIELD_LABEL, RowDataProblem } from './rowProblem.ts';
import type { LedgerRow, MonthCalculationInput, MonthCalculationResult, OpeningBalance, RowFigures, RowProblem, SalaryRowData, YtdCarry } from './salaryRows.ts';

/**
 * The salary flow's arithmetic over salary rows, without I/O: personal contributions per row and the
 * cumulative income tax per person and withholding entity, on top of the pure engine in @app/shared/payroll.
 *
 * Ledger (payroll-rules.md §1.1, §5.3): the withholding agent is the dispatch entity (`dispatchCompany`), so
 * year-to-date figures are kept per (dispatch entity, ID card, tax year) across all its client companies.
 * The tax year is the calendar year of the salary month (the work month is used as the pay month).
 * - Earlier months = CONFIRMED rows (tag = 1) of the same entity and ID card in earlier months of the year;
 *   rows of one month (several client companies) are added up, 专项附加扣除 counted once (the largest).
 * - Month index n = months employed by the entity this year (payroll-rules.md §1.1, finding P3): from the
 *   hire month (the earliest 入职日期 of the person's rows under the entity) or January, whichever is later,
 *   to the salary month, continuous employment assumed; rows without a hire date (added by hand, or from
 *   before it was kept) fall back to the earlier confirmed months + 1. Never fewer than those months + 1.
 * - Opening balances (期初累计数据): the year-to-date figures an entity entered for a person up to a month
 *   stand for all months up to it (salary rows of those months are not counted again), and their month count
 *   replaces the count up to it.
 * - An unconfirmed earlier month, or a confirmed later month, of the same person and entity is an error:
 *   months are confirmed in order, and a confirmed month is never rewritten.
 * Several rows in the same month under the same entity (two client companies, §5.3): the tax is computed
 * once on the sum of all of them; rows already confirmed keep the tax they withheld, and the rest of the
 * month's tax is split over the unconfirmed rows in proportion to their (gross − fiveOne), the left-over fen
 * going to the largest row. Only the rows of the company being calculated are written; the confirm step
 * re-checks every figure, so a row whose share moved since (the other company changed or confirmed) must be
 * calculated again before it can be confirmed.
 * Rows of taxesType 劳务报酬 are taxed per payment (预扣率表二) and kept out of the wage ledger.
 *
 * 全年一次性奖金 (bonus, payroll-rules.md §1.5): by default taxed on its own with the monthly table looked up at
 * bonus / 12 (annualBonusTax), kept out of 应发 and the ledger, its tax on its own line (bonusTax); 实发 =
 * 应发 − 五险一金 − 个税 + 奖金 − 奖金个税. Separate taxation is allowed once per tax year per person and
 * withholding agent and until 2027-12 (公告2023年第30号); a row marked 并入当月工资 adds the bonus to 应发 and to
 * the cumulative method instead.
 *
 * 补发 / 补扣 are wages of the month (rowFigures.ts); 经济补偿金 is taxed on its own above its exemption and, like the
 * separate bonus, adds to 实发 net of its tax (payItems.ts). 实发 is never below zero (settleNetPay, PB4).
 */

/** Calculates `rows` (see the module comment for the ledger rules); never throws for bad row data. */
export function calculateMonth(input: MonthCalculationInput): MonthCalculationResult {
  const { figures, problems, unrecordedMonths } = calculateMonthExplained(input);
  return { figures, problems, unrecordedMonths };
}

/**
 * {@link calculateMonth}, with the engine's own input error behind each refused row where there is one (a ratio
 * out of range, a base floor above its ceiling...): what the typed entry point calculateMonthlySalary rethrows.
 * Not exported from the package: the salary flow answers with the problems' messages.
 */
export function calculateMonthExplained(input: MonthCalculationInput): MonthCalculationResult & { inputErrors: Map<number, PayrollInputError> } {
  const figures = new Map<number, RowFigures>();
  const problems: RowProblem[] = [];
  const inputErrors = new Map<number, PayrollInputError>();
  const unrecordedMonths: MonthCalculationResult['unrecordedMonths'] = [];
  const fail = (row: SalaryRowData, problem: RowDataProblem) => {
    const { inputError } = problem;
    const faulty = problem.field ?? inputError?.field;
    problems.push({ id: row.id, staffName: row.staffName, idCard: row.idCard, message: problem.message, reason: problem.reason, ...(faulty ? { field: faulty } : {}) });
    if (inputError) inputErrors.set(row.id, inputError);
  };
  const own = new Map<number, PersonFigures>();
  const ownFigures = (row: SalaryRowData) => {
    let p = own.get(row.id);
    if (!p) {
      p = personalFigures(row, input.rates);
      own.set(row.id, p);
    }
    return p;
  };

  // Wage rows grouped by (entity, ID card); labour rows stand alone.
  const groups = new Map<string, SalaryRowData[]>();
  for (const row of input.rows) {
    if (row.month !== input.month) {
      fail(row, new RowDataProblem('PAYROLL_ROW_MONTH_MISMATCH', { month: input.month }));
      continue;
    }
    if (isLabour(row.taxesType)) {
      try {
        if ((row.bonus ?? 0) > 0) throw new RowDataProblem('PAYROLL_LABOUR_NO_BONUS');
        if ((row.severance ?? 0) > 0) throw new RowDataProblem('PAYROLL_LABOUR_NO_SEVERANCE');
        const p = ownFigures(row);
        const tax = labourRemunerationTax(p.gross);
        const net = settleNetPay(p.gross - p.fiveOne - tax, row);
        figures.set(
          row.id,
          rowFigures(p, {
            tax,
            bonusTax: 0,
            severanceExempt: 0,
            severanceTax: 0,
            deduct: row.deduct ?? 0,
            otherDeduct: 0,
            monthIndex: null,
            cumulativeIncome: null,
            cumulativeTaxable: null,
            cumulativeTax: null,
            taxableThisMonth: null,
          }, net),
        );
      } catch (err) {
        if (!(err instanceof RowDataProblem)) throw err;
        fail(row, err);
      }
      continue;
    }
    if (!row.dispatchCompany) {
      fail(row, new RowDataProblem('PAYROLL_ROW_NO_AGENT', { label: FIELD_LABEL.dispatchCompany }));
      continue;
    }
    const k = keyOf(row.dispatchCompany, row.idCard);
    const g = groups.get(k);
    if (g) g.push(row);
    else groups.set(k, [row]);
  }
  if (groups.size === 0) return { figures, problems, unrecordedMonths, inputErrors };

  const targetIds = new Set(input.rows.map((r) => r.id));
  const others = new Map<string, SalaryRowData[]>();
  for (const row of input.sameMonthOthers) {
    if (targetIds.has(row.id) || row.month !== input.month || isLabour(row.taxesType)) continue;
    const k = keyOf(row.dispatchCompany, row.idCard);
    if (!groups.has(k)) continue;
    const list = others.get(k);
    if (list) list.push(row);
    else others.set(k, [row]);
  }
  const history = new Map<string, LedgerRow[]>();
  for (const l of input.ledger) {
    if (isLabour(l.taxesType) || l.month === input.month || l.month.slice(0, 4) !== input.month.slice(0, 4)) continue;
    const k = keyOf(l.dispatchCompany, l.idCard);
    if (!groups.has(k)) continue;
    const list = history.get(k);
    if (list) list.push(l);
    else history.set(k, [l]);
  }

  const openingOf = new Map<string, OpeningBalance>();
  for (const o of input.openings ?? []) if (o.throughMonth.slice(0, 4) === input.month.slice(0, 4)) openingOf.set(keyOf(o.dispatchCompany, o.idCard), o);
  const carryOf = new Map<string, YtdCarry>();
  for (const c of input.carried ?? []) {
    if (c.throughMonth < input.month && c.throughMonth.slice(0, 4) === input.month.slice(0, 4)) carryOf.set(keyOf(c.dispatchCompany, c.idCard), c);
  }

  for (const [k, targets] of groups) {
    try {
      const opening = openingOf.get(k);
      if (opening && opening.throughMonth >= input.month) throw new RowDataProblem('PAYROLL_OPENING_BEYOND_MONTH', { through: opening.throughMonth, month: input.month });
      const carry = carryOf.get(k);
      // confirmed rows the carried ledger row already adds up are not counted again
      const uncarried = (history.get(k) ?? []).filter((l) => (!opening || l.month > opening.throughMonth) && !(carry && l.tag === 1 && l.month <= carry.throughMonth));
      const confirmed = previousMonthsOf(uncarried, input.month);
      const confirmedMonths = (carry?.months ?? 0) + confirmed.length;
      const previousMonths = [...(opening ? [openingMonth(opening)] : []), ...(carry && carry.months > 0 ? [carriedMonth(carry)] : []), ...confirmed];
      const members = [...targets, ...(others.get(k) ?? [])].sort(byCompanyThenId);
      checkSeparateBonus(input.month, members, history.get(k) ?? [], carry?.separateBonus ?? null);
      const monthIndex = monthsEmployed(input.month, members, opening, confirmedMonths);
      // months with a record: the opening balance's months and the confirmed ones
      const recorded = (opening?.months ?? 0) + confirmedMonths;
      if (monthIndex > recorded + 1) {
        unrecordedMonths.push({ idCard: targets[0].idCard, staffName: targets[0].staffName, months: monthIndex - recorded - 1 });
      }
      let gross = 0;
      let fiveOne = 0;
      let deduct = 0;
      let otherDeduct = 0;
      let fixedTax = 0;
      const floating: { row: SalaryRowData; p: PersonFigures }[] = [];
      for (const m of members) {
        // one person's deductions count once in the month, whichever client company's rows carry them
        deduct = Math.max(deduct, m.deduct ?? 0);
        otherDeduct = Math.max(otherDeduct, m.otherDeduct ?? 0);
        if (m.tag === 1) {
          // Confirmed elsewhere: its figures and its withheld tax are final.
          if (m.gross === null || m.fiveOne === null || m.tax === null) throw new RowDataProblem('PAYROLL_CONFIRMED_WITHOUT_FIGURES', { who: who(m) });
          gross += m.gross;
          fiveOne += m.fiveOne;
          fixedTax += m.tax;
          continue;
        }
        let p: PersonFigures;
        try {
          p = ownFigures(m);
        } catch (err) {
          if (err instanceof RowDataProblem && !targetIds.has(m.id)) throw new RowDataProblem('PAYROLL_SAME_MONTH_ROW_WRONG', { who: who(m), problem: err.reason });
          throw err;
        }
        gross += p.gross;
        fiveOne += p.fiveOne;
        floating.push({ row: m, p });
      }
      let result: ReturnType<typeof calculateCumulativeWithholding>;
      try {
        result = calculateCumulativeWithholding({
          monthIndex,
          previousMonths,
          current: { gross, fiveOne, deduct, otherDeduct },
          simplifiedBasicDeduction: members.some((m) => m.simplifiedDeduction === true || m.simplifiedDeduction === 1),
        });
      } catch (err) {
        if (err instanceof PayrollInputError) throw RowDataProblem.of(err.reason, err);
        throw err;
      }
      const remaining = Math.max(0, result.tax - fixedTax);
      const shares = splitTax(
        remaining,
        floating.map((f) => f.p.gross - f.p.fiveOne),
      );
      floating.forEach((f, i) => {
        if (!targetIds.has(f.row.id)) return;
        const bonus = separateBonusOf(f.row);
        const bonusTax = bonus > 0 ? annualBonusTax(bonus) : 0;
        let net: NetPay;
        let severance: SeveranceFigures;
        try {
          severance = severanceOf(f.row, input.rates);
          net = settleNetPay(f.p.gross - f.p.fiveOne - shares[i] + bonus - bonusTax + severance.severance - severance.tax, f.row);
        } catch (err) {
          if (!(err instanceof RowDataProblem)) throw err;
          fail(f.row, err);
          return;
        }
        figures.set(
          f.row.id,
          rowFigures(f.p, {
            tax: shares[i],
            bonusTax,
            severanceExempt: severance.exempt,
            severanceTax: severance.tax,
            deduct: f.row.deduct ?? 0,
            otherDeduct: f.row.otherDeduct ?? 0,
            monthIndex,
            cumulativeIncome: result.cumulativeIncome,
            cumulativeTaxable: result.cumulativeTaxable,
            cumulativeTax: result.cumulativeTax,
            taxableThisMonth: result.taxableThisMonth,
          }, net),
        );
      });
    } catch (err) {
      if (!(err instanceof RowDataProblem)) throw err;
      for (const t of targets) {
        let problem = err;
        try {
          ownFigures(t);
        } catch (own) {
          if (own instanceof RowDataProblem) problem = own;
        }
        fail(t, problem);
      }
    }
  }
  problems.sort((a, b) => a.id - b.id);
  return { figures, problems, unrecordedMonths, inputErrors };
}
