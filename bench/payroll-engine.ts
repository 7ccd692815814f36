/**
 * Payroll engine throughput: how many salary rows a second `calculateMonthlySalary` computes, for a
 * January row (no history) and a December row with eleven confirmed months behind it. Since issue 20 item 8 it
 * runs the production engine (`calculateMonth`, one row with its ledger per call), so this is a per-call upper
 * bound of the salary flow's own arithmetic, not of a batch.
 * Target (issue "Payroll"): >= 100,000 rows/second. Run: node --import tsx bench/payroll-engine.ts
 */
import { calculateMonthlySalary, type ConfirmedMonth, type PayrollRates } from '../packages/shared/src/payroll/index.ts';

const rates: PayrollRates = {
  yanglao: { ratioSelf: '0.08', ratioCompany: '0.16', floor: 716_200, ceiling: 3_581_100 },
  yiliao: { ratioSelf: '0.02', ratioCompany: '0.098', floor: 716_200, ceiling: 3_581_100 },
  shiye: { ratioSelf: '0.005', ratioCompany: '0.005', floor: 716_200, ceiling: 3_581_100 },
  gongjijin: { ratioSelf: '0.12', ratioCompany: '0.12', floor: 254_000, ceiling: 3_581_100 },
  yiliaoFixedSelf: 300,
};

function run(label: string, rows: number, monthIndex: number, previous: ConfirmedMonth[]) {
  let checksum = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rows; i++) {
    const salary = 500_000 + (i % 3000) * 1000;
    const r = calculateMonthlySalary({
      salary,
      jiaban: (i % 7) * 10_000,
      koukuan: (i % 5) * 1_000,
      bases: { yanglao: salary, yiliao: salary, shiye: salary, gongjijin: salary },
      rates,
      deduct: (i % 3) * 100_000,
      monthIndex,
      previousMonths: previous,
    });
    checksum += r.realSalary;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${label}: ${rows} rows in ${seconds.toFixed(3)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s (checksum ${checksum})`);
}

const month: ConfirmedMonth = { gross: 1_200_000, fiveOne: 250_000, deduct: 100_000, tax: 20_000 };
run('warm-up', 20_000, 1, []);
run('January (no history)', 200_000, 1, []);
run('December (11 confirmed months)', 200_000, 12, Array.from({ length: 11 }, () => month));
console.log('target: >= 100,000 rows/s');
