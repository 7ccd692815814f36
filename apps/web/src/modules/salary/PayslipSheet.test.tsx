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
});
