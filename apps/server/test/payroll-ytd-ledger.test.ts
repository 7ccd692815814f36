import { describe, expect, it } from 'vitest';
import { salaryResource } from '@app/shared/resources/salary';
import { calculateMonth, type LedgerRow, VERIFIED_FIGURES } from '@app/shared/payroll';
import { loadRateBook } from '../src/modules/payroll/rates.ts';
import { loadCompanyMonthRows, salaryColumn } from '../src/modules/payroll/salaryStore.ts';
import { rebuildLedger, YTD_TABLE } from '../src/modules/payroll/ytdLedger.ts';
import type { TestApp } from './helpers.ts';
import { createStaff } from './dispatch-fixtures.ts';
import { type Api, companyWithStaff, runMonth, salaryRows, vectorStaff, withAdminApp } from './payroll-fixtures.ts';

// Finding P8 / issue 10 item 10: each confirmed month stores its year-to-date figures per withholding agent and
// worker; calculate and confirm read the row of the month before instead of every confirmed row of the year.
// Checked here: the ledger kept by confirm and 反确认 always equals one rebuilt from the confirmed rows; the
// figures the ledger path produces equal those of the whole-year path (calculateMonth fed every row of the year,
// as before the ledger), for workers at two client companies, a 反确认, a separate bonus and a gap in employment.

let t: TestApp;
let call: Api;
let token: string;

withAdminApp((s) => {
  ({ t, call, token } = s);
});

type LedgerSnapshot = Record<string, unknown>[];

async function ledgerRows(): Promise<LedgerSnapshot> {
  const rows = await t.app.ctx.db
    .selectFrom(YTD_TABLE)
    .select(['dispatch_company', 'id_card', 'month', 'months', 'gross', 'five_one', 'deduct', 'other_deduct', 'tax', 'bonus_company', 'bonus_month'])
    .orderBy('dispatch_company')
    .orderBy('id_card')
    .orderBy('month')
    .execute();
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'id_card' ? Number(v) : v])));
}

/** The ledger as kept, then rebuilt from scratch: they must be the same rows. */
async function expectLedgerConsistent(): Promise<LedgerSnapshot> {
  const kept = await ledgerRows();
  await rebuildLedger(t.app.ctx.db, t.app.ctx.dialect);
  expect(await ledgerRows()).toEqual(kept);
  return kept;
}

const C = salaryColumn;

/** calculateMonth fed every row of the year (the path before the ledger) for a company's month. */
async function wholeYearFigures(companyId: number, month: string) {
  const { db } = t.app.ctx;
  // as the confirm's re-check sees them: the month's own rows not yet confirmed
  const rows = (await loadCompanyMonthRows(db, companyId, month)).map((r) => ({ ...r, tag: 0 }));
  const ids = rows.map((r) => r.idCard);
  const others = (await loadCompanyMonthRowsOfPersons(month, ids)).filter((r) => r.companyId !== companyId);
  const ledger = (await db
    .selectFrom(salaryResource.table)
    .select([
      `${C('idCard')} as idCard`,
      `${C('dispatchCompany')} as dispatchCompany`,
      `${C('month')} as month`,
      `${C('companyName')} as companyName`,
      `${C('taxesType')} as taxesType`,
      `${C('tag')} as tag`,
      `${C('gross')} as gross`,
      `${C('fiveOne')} as fiveOne`,
      `${C('deduct')} as deduct`,
      `${C('tax')} as tax`,
      `${C('bonus')} as bonus`,
      `${C('bonusMerged')} as bonusMerged`,
      `${C('otherDeduct')} as otherDeduct`,
    ] as never)
    .where(C('month'), '>=', `${month.slice(0, 4)}-01`)
    .where(C('month'), '<=', `${month.slice(0, 4)}-12`)
    .where(C('month'), '!=', month)
    .where(C('idCard'), 'in', ids)
    .execute()) as Record<string, unknown>[];
  const asNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const history: LedgerRow[] = ledger.map((l) => ({
    ...(l as unknown as LedgerRow),
    tag: Number(l.tag),
    gross: asNumber(l.gross),
    fiveOne: asNumber(l.fiveOne),
    deduct: asNumber(l.deduct),
    tax: asNumber(l.tax),
    bonus: asNumber(l.bonus),
    bonusMerged: Number(l.bonusMerged ?? 0),
    otherDeduct: asNumber(l.otherDeduct),
  }));
  const rates = await loadRateBook(db, month, [...rows, ...others].map((r) => r.censusType ?? ''));
  return { rows, result: calculateMonth({ month, rows, sameMonthOthers: others, ledger: history, rates }) };
}

async function loadCompanyMonthRowsOfPersons(month: string, idCards: string[]) {
  const companies = (await t.app.ctx.db
    .selectFrom(salaryResource.table)
    .select(`${C('companyId')} as companyId` as never)
    .distinct()
    .where(C('month'), '=', month)
    .where(C('idCard'), 'in', idCards)
    .execute()) as unknown as { companyId: number }[];
  const out = [];
  for (const c of companies) out.push(...(await loadCompanyMonthRows(t.app.ctx.db, Number(c.companyId), month)).filter((r) => idCards.includes(r.idCard)));
  return out;
}

/** The stored figures of a company's month equal the whole-year path's, to the fen. */
async function expectSameAsWholeYear(companyId: number, month: string) {
  const { rows, result } = await wholeYearFigures(companyId, month);
  expect(result.problems).toEqual([]);
  for (const r of rows) {
    const f = result.figures.get(r.id)!;
    for (const k of VERIFIED_FIGURES) expect({ row: r.staffName, [k]: r[k] ?? null }).toEqual({ row: r.staffName, [k]: f[k] ?? null });
  }
}

describe('year-to-date ledger', () => {
  it('is kept by confirm and 反确认 and gives the figures of the whole-year path', async () => {
    const both = vectorStaff(8000, { staffName: '两处', inductionDate: '2025-03-01' });
    const onlyA = vectorStaff(12000, { staffName: '甲处', inductionDate: '2025-03-01' });
    const gap = vectorStaff(9000, { staffName: '间断', inductionDate: '2026-01-01', leaveDate: '2026-01-31' });
    const a = await companyWithStaff(t.app, token, [both, onlyA]);
    const b = await companyWithStaff(t.app, token, [both]);
    const c = await companyWithStaff(t.app, token, [gap]);

    // January at three client companies of the same withholding agent
    await runMonth(call, a.company.id, '2026-01', (r) => [{ id: r[0].id, jiaban: 1200 }]);
    await runMonth(call, b.company.id, '2026-01');
    await runMonth(call, c.company.id, '2026-01');
    let ledger = await expectLedgerConsistent();
    const bothJan = ledger.find((l) => l.id_card === both.idCard && l.month === '2026-01')!;
    // both client companies add up in one row: 8,000 + 1,200 at A and 8,000 at B
    expect(bothJan).toMatchObject({ months: 1, gross: 1_720_000 });

    // February: A with a separately taxed bonus for 甲处, then B
    await runMonth(call, a.company.id, '2026-02', (r) => r.filter((x) => x.staffName === '甲处').map((x) => ({ id: x.id, bonus: 30000 }) as never));
    await expectSameAsWholeYear(a.company.id, '2026-02');
    await runMonth(call, b.company.id, '2026-02');
    ledger = await expectLedgerConsistent();
    expect(ledger.find((l) => l.id_card === onlyA.idCard && l.month === '2026-02')).toMatchObject({ months: 2, bonus_month: '2026-02' });

    // 反确认 of B's February: the row of the month goes back to A's figures only, then B confirms new figures
    const reopened = await call('POST', '/api/accountsSalary/unconfirm', { companyId: b.company.id, month: '2026-02', reason: '加班费漏报' });
    expect(reopened.status).toBe(200);
    ledger = await expectLedgerConsistent();
    const feb = ledger.find((l) => l.id_card === both.idCard && l.month === '2026-02')!;
    expect(feb.months).toBe(2);
    const febB = (await salaryRows(call, b.company.id, '2026-02'))[0];
    expect((await call('PUT', '/api/accountsSalary', { id: febB.id, jiaban: 800 })).status).toBeLessThan(300);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: b.company.id, month: '2026-02' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: b.company.id, month: '2026-02' })).status).toBe(200);
    ledger = await expectLedgerConsistent();
    expect(Number(ledger.find((l) => l.id_card === both.idCard && l.month === '2026-02')!.gross)).toBe(Number(feb.gross) + 880_000);

    // March at A only; April: the gap worker comes back at A (carried from January, two months behind)
    await runMonth(call, a.company.id, '2026-03');
    await expectSameAsWholeYear(a.company.id, '2026-03');
    await createStaff(t.app, token, a.company.id, vectorStaff(9000, { staffName: '间断', idCard: gap.idCard, inductionDate: '2026-04-01' }));
    const april = await call('POST', '/api/accountsSalary/generator', { companyId: a.company.id, month: '2026-04' });
    expect(april.status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: a.company.id, month: '2026-04' })).status).toBe(200);
    await expectSameAsWholeYear(a.company.id, '2026-04');
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: a.company.id, month: '2026-04' })).status).toBe(200);
    ledger = await expectLedgerConsistent();
    expect(ledger.find((l) => l.id_card === gap.idCard && l.month === '2026-04')).toMatchObject({ months: 2 });
    // the separate bonus stays used for the rest of the year (carried by the ledger rows): a second one in May
    // is refused by the inline edit, which recalculates the worker
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: a.company.id, month: '2026-05' })).status).toBe(200);
    const mayRow = (await salaryRows(call, a.company.id, '2026-05')).find((r) => r.staffName === '甲处')!;
    const refused = await call('PUT', '/api/accountsSalary', { id: mayRow.id, bonus: 1000 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('全年一次性奖金单独计税一个纳税年度只能使用一次');
    expect(refused.body.message).toContain('2026-02已使用');
  });

  it('refuses, as before, a month whose earlier month is not confirmed and an earlier month once a later one is', async () => {
    const w = vectorStaff(10000, { staffName: '顺序', inductionDate: '2025-01-01' });
    const { company } = await companyWithStaff(t.app, token, [w]);
    await runMonth(call, company.id, '2026-01');
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: '2026-02' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/generator', { companyId: company.id, month: '2026-03' })).status).toBe(200);
    const early = await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2026-03' });
    // issue 20 item 5: the row is left uncalculated and reported, not the whole month refused
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ count: 0, notCalculated: 1 });
    expect(JSON.stringify(early.body.report)).toContain('2026-02的工资尚未确认');
    expect((await salaryRows(call, company.id, '2026-03'))[0]).toMatchObject({ calculated: false, tax: null });
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2026-02' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month: '2026-02' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/calculate', { companyId: company.id, month: '2026-03' })).status).toBe(200);
    expect((await call('POST', '/api/accountsSalary/confirm', { companyId: company.id, month: '2026-03' })).status).toBe(200);
    // February reopened is refused while March (built on it) is confirmed
    const reopen = await call('POST', '/api/accountsSalary/unconfirm', { companyId: company.id, month: '2026-02', reason: '测试' });
    expect(reopen.status).toBe(409);
    const ledger = await expectLedgerConsistent();
    expect(ledger.filter((l) => l.id_card === w.idCard).map((l) => [l.month, l.months])).toEqual([
      ['2026-01', 1],
      ['2026-02', 2],
      ['2026-03', 3],
    ]);
  });
});
