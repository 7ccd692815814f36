import { describe, expect, it } from 'vitest';
import { queryStatsOf } from '../src/core/queryStats.ts';
import { idCard, multipart, workbook } from './dispatch-fixtures.ts';
import { adminApp, } from './helpers.ts';

// Issue 20: the payslip import writes each chunk as multi-row statements (one INSERT per chunk on PostgreSQL,
// a few on SQLite and MySQL; likewise the UPDATEs of the payslips it replaces), not one UPDATE per row, which
// cost PostgreSQL and MariaDB a round trip each. Each row must still get its own values.

const session = adminApp();

const HEADER = ['月份', '姓名', '身份证号', '基础工资', '本期应发', '实发', '备注'];
const MONTH = '2026-07';
const ROWS = 1_200;
const personId = (n: number) => idCard(`${1960 + Math.floor(n / 1000)}-01-01`, n % 1000);

async function importSheet(rows: unknown[][]) {
  const mp = multipart(workbook([HEADER, ...rows], 'xlsx'), 'payslips.xlsx');
  const res = await session.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...mp.headers, authorization: `Bearer ${session.token}` }, payload: mp.payload });
  return { status: res.statusCode, body: res.json() };
}

/** How many INSERT and UPDATE statements on ac_payslip `run` sent (the SQL monitor's counts). */
async function writeStatements(run: () => Promise<unknown>) {
  const stats = queryStatsOf(session.app.ctx.db);
  if (!stats) throw new Error('no query statistics on the test database');
  stats.reset();
  await run();
  const count = (re: RegExp) =>
    stats
      .snapshot()
      .statements.filter((s) => re.test(s.sql))
      .reduce((n, s) => n + s.count, 0);
  return { inserts: count(/^insert into\W+ac_payslip\W/i), updates: count(/^(with\b.*)?update\W+ac_payslip\W/i) };
}

const slips = () =>
  session.app.ctx.db.selectFrom('ac_payslip').select(['id', 'id_card', 'jichu', 'benqi', 'shifa', 'beizhu', 'source']).where('month', '=', MONTH).orderBy('id').execute();

describe('payslip import in multi-row statements (issue 20)', () => {
  it('re-importing 1,200 rows updates each replaced payslip with its own values, in a few statements per chunk', async () => {
    const first = Array.from({ length: ROWS }, (_v, i) => [MONTH, `批次${i}`, personId(30_000 + i), 1000 + i, 1000 + i, 900 + i, `原'${i}"`]);
    let res: Awaited<ReturnType<typeof importSheet>> | undefined;
    const firstWrites = await writeStatements(async () => (res = await importSheet(first)));
    expect(res?.status).toBe(200);
    expect(res?.body).toMatchObject({ total: ROWS, inserted: ROWS, updated: 0, unchanged: 0 });
    // two chunks of 1,000 rows: per-row INSERTs would be 1,200 statements
    expect(firstWrites.inserts).toBeLessThanOrEqual(10);
    const before = await slips();
    expect(before).toHaveLength(ROWS);

    // every third row unchanged; the others get new amounts and remarks, and every other one of those an
    // empty 实发 (an empty cell clears the item); 100 people are new
    const second = first.map((r, i) => (i % 3 === 0 ? r : [MONTH, r[1], r[2], 5000 + i, 5000 + i, i % 2 ? '' : 4000 + i, `改'${i}"，第${i}行`]));
    for (let i = 0; i < 100; i++) second.push([MONTH, `新${i}`, personId(32_000 + i), 7000 + i, 7000 + i, 6000 + i, '']);
    const secondWrites = await writeStatements(async () => (res = await importSheet(second)));
    expect(res?.status).toBe(200);
    expect(res?.body).toMatchObject({ total: ROWS + 100, inserted: 100, updated: 800, unchanged: 400 });
    // 800 replaced payslips over two chunks: per-row UPDATEs would be 800 statements
    expect(secondWrites.updates).toBeLessThanOrEqual(10);
    expect(secondWrites.inserts).toBeLessThanOrEqual(2);

    const after = await slips();
    expect(after).toHaveLength(ROWS + 100);
    const fen = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    for (let i = 0; i < ROWS; i++) {
      const s = after[i];
      // the payslip keeps its id
      expect(s.id).toBe(before[i].id);
      expect(s.id_card).toBe(personId(30_000 + i));
      if (i % 3 === 0) {
        expect([fen(s.jichu), fen(s.shifa), s.beizhu]).toEqual([(1000 + i) * 100, (900 + i) * 100, `原'${i}"`]);
      } else {
        expect([fen(s.jichu), fen(s.benqi), fen(s.shifa), s.beizhu, s.source]).toEqual([
          (5000 + i) * 100,
          (5000 + i) * 100,
          i % 2 ? null : (4000 + i) * 100,
          `改'${i}"，第${i}行`,
          '导入',
        ]);
      }
    }
    expect(after.slice(ROWS).map((s) => [s.id_card, fen(s.jichu), s.beizhu])).toEqual(
      Array.from({ length: 100 }, (_v, i) => [personId(32_000 + i), (7000 + i) * 100, null]),
    );
  });
});
