import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '../../crud/testUtils';
import { PayslipSheet, payslipItems } from './PayslipSheet';

beforeAll(async () => {
  await setupI18n();
});
afterEach(cleanup);

// Finding P7: every amount that makes up 应发 and 实发 is its own line, and the lines add up on the sheet.
describe('the printable payslip (P7)', () => {
  const row = { month: '2026-01', name: '工资条甲', idCard: '110101199001010011', jichu: 8000, jiaban: 500, koukuan: 100, benqi: 8400, shebaogongjijin: 1803, yingna: 47.91, shifa: 6549.09 };

  it('lists 加班费 and 扣款（税前） as lines whose sum is 应发', () => {
    const { income } = payslipItems(row);
    expect(income.map((i) => [i.name, i.value])).toEqual([
      ['jichu', 8000],
      ['jiaban', 500],
      ['koukuan', -100],
    ]);
    expect(income.reduce((s, i) => s + i.value, 0)).toBe(row.benqi);
  });

  it('shows each line with its amount, the deduction with a minus sign', () => {
    const { container } = render(<PayslipSheet row={row} />);
    const line = (item: string) => container.querySelector(`tr[data-item="${item}"]`)?.textContent;
    expect(line('jichu')).toBe('基础工资8,000.00');
    expect(line('jiaban')).toBe('加班费500.00');
    expect(line('koukuan')).toBe('扣款（税前）-100.00');
    expect(container.querySelector('[data-testid="payslip-net"]')?.textContent).toContain('6,549.09');
  });

  it('PB5, U13: a generated slip prints its salary row\'s lines, 本期应发 their sum, a zero tax explained', () => {
    const slip = { id: 7, month: '2026-01', name: '奖金甲', idCard: '110101199001010011', jichu: 8000, nianzhong1: 36001, benqi: 44001, shifa: 38771.99 };
    const lines = {
      gross: 44001,
      net: 38771.99,
      lines: [
        { name: 'salary', label: '基础工资', section: 'income' as const, amount: 8000 },
        { name: 'bonusSeparate', label: '全年一次性奖金（单独计税）', section: 'income' as const, amount: 36001 },
        { name: 'fiveOne', label: '五险一金(个人)', section: 'deduction' as const, amount: 1803 },
        { name: 'tax', label: '个人所得税', section: 'deduction' as const, amount: 35.91 },
        { name: 'bonusTax', label: '年终奖个税', section: 'deduction' as const, amount: 3390.1 },
        { name: 'deduct', label: '专项附加扣除', section: 'info' as const, amount: 0 },
        { name: 'taxableThisMonth', label: '本月应纳税所得额', section: 'info' as const, amount: 0, note: 'belowDeductions' as const },
      ],
    };
    const { container } = render(<PayslipSheet row={slip} lines={lines} />);
    const line = (item: string) => container.querySelector(`tr[data-item="${item}"]`)?.textContent;
    expect(line('bonusSeparate')).toBe('全年一次性奖金（单独计税）36,001.00');
    expect(line('bonusTax')).toContain('3,390.10');
    expect(line('deduct')).toContain('0.00');
    expect(container.querySelector('tr[data-note="taxableThisMonth"]')?.textContent).toContain('本月无应纳税所得额');
    expect(container.querySelector('.payslip-total')?.textContent).toContain('44,001.00');
    expect(container.querySelector('[data-testid="payslip-net"]')?.textContent).toContain('38,771.99');
  });
});
