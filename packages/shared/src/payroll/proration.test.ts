import { describe, expect, it } from 'vitest';
import { calendarDays, isPayable, monthSpan, prorateSalary, workingDays } from './proration.ts';

// Figures worked by hand. September 2025 has 30 days; the 1st is a Monday, so it has 22 working days
// (1-5, 8-12, 15-19, 22-26, 29-30).
const hired = (inductionDate: string, leaveDate: string | null = null, jobState = '在职') => ({ inductionDate, leaveDate, jobState });

describe('who is paid for a month (P2)', () => {
  it('by dates, whatever the state label', () => {
    expect(isPayable(hired('2025-03-01', null, '试用'), '2025-09')).toBe(true);
    expect(isPayable(hired('2025-03-01', '2025-09-15', '离职'), '2025-09')).toBe(true);
    expect(isPayable(hired('2025-03-01', '2025-09-01', '离职'), '2025-09')).toBe(true);
    expect(isPayable(hired('2025-03-01', '2025-08-31', '离职'), '2025-09')).toBe(false);
    expect(isPayable(hired('2025-09-30'), '2025-09')).toBe(true);
    expect(isPayable(hired('2025-10-01'), '2025-09')).toBe(false);
    // left, but the records do not say when: not paid
    expect(isPayable(hired('2025-03-01', null, '离职'), '2025-09')).toBe(false);
    expect(isPayable(hired('2025-03-01', '', '退休'), '2025-09')).toBe(false);
    // a state label of 在职 with a past leave date: the date decides
    expect(isPayable(hired('2025-03-01', '2025-07-31', '在职'), '2025-09')).toBe(false);
  });

  it('counts days', () => {
    expect(monthSpan('2024-02')).toEqual({ first: '2024-02-01', last: '2024-02-29', days: 29 });
    expect(monthSpan('2025-12').last).toBe('2025-12-31');
    expect(calendarDays('2025-09-10', '2025-09-30')).toBe(21);
    expect(workingDays('2025-09-01', '2025-09-30')).toBe(22);
    expect(workingDays('2025-09-01', '2025-09-15')).toBe(11);
    expect(workingDays('2025-09-10', '2025-09-30')).toBe(15);
    expect(workingDays('2025-09-06', '2025-09-07')).toBe(0);
  });
});

describe('part-month salary', () => {
  it('pays a whole month in full under either rule', () => {
    expect(prorateSalary(800_000, hired('2025-03-01'), '2025-09', 'calendar')).toEqual({ salary: 800_000, paidDays: null });
    expect(prorateSalary(800_000, hired('2025-09-01', '2025-09-30', '离职'), '2025-09', 'workdays')).toEqual({ salary: 800_000, paidDays: null });
  });

  it('calendar days: 8,000 left on 09-15 -> 15/30 = 4,000.00; 9,000 hired on 09-10 -> 21/30 = 6,300.00', () => {
    expect(prorateSalary(800_000, hired('2025-03-01', '2025-09-15', '离职'), '2025-09', 'calendar')).toEqual({ salary: 400_000, paidDays: 15 });
    expect(prorateSalary(900_000, hired('2025-09-10'), '2025-09', 'calendar')).toEqual({ salary: 630_000, paidDays: 21 });
    // 7,000 hired 09-20: 11/30 x 7000 = 2566.666... -> 2,566.67
    expect(prorateSalary(700_000, hired('2025-09-20'), '2025-09', 'calendar')).toEqual({ salary: 256_667, paidDays: 11 });
  });

  it('21.75 working days: 8,000 x 11/21.75 = 4,045.98; 9,000 x 15/21.75 = 6,206.90; capped at the monthly salary', () => {
    expect(prorateSalary(800_000, hired('2025-03-01', '2025-09-15', '离职'), '2025-09', 'workdays')).toEqual({ salary: 404_598, paidDays: 11 });
    expect(prorateSalary(900_000, hired('2025-09-10'), '2025-09', 'workdays')).toEqual({ salary: 620_690, paidDays: 15 });
    // hired on the 2nd: 21 working days -> 9,000 x 21/21.75 = 8,689.655... -> 8,689.66
    expect(prorateSalary(900_000, hired('2025-09-02'), '2025-09', 'workdays')).toEqual({ salary: 868_966, paidDays: 21 });
    // December 2025 has 23 working days: hired on 12-02, 22 of them would pay 9,103.45, more than the month: capped
    expect(prorateSalary(900_000, hired('2025-12-02'), '2025-12', 'workdays')).toEqual({ salary: 900_000, paidDays: 22 });
    expect(prorateSalary(900_000, hired('2025-09-02', '2025-09-30'), '2025-12', 'workdays')).toBeNull();
  });

  it('not payable: null', () => {
    expect(prorateSalary(800_000, hired('2025-10-01'), '2025-09', 'calendar')).toBeNull();
  });
});
