import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../app/i18n';
import { renderWithApp, setupI18n } from '../../crud/testUtils';
import { OpenItemsAlert, type ReportItem } from './CalculationReport';

// Issue 20 item 5: a row 计算 left uncalculated is one of the month's open items, with its own label.
const notCalculated: ReportItem = {
  kind: 'rowNotCalculated',
  staffName: '缺基数',
  idCard: '110101199003074518',
  month: '2026-01',
  months: null,
  savedUnder: null,
  field: 'yanglaoBase',
  code: 'PAYROLL_ROW_FIELD_NOT_CALCULATED',
  reason: '本行未计算：养老保险基数缺失或无效（缺少养老保险基数（yanglaoBase））；请修改后重新计算',
};

beforeAll(async () => {
  await setupI18n();
});
afterEach(async () => {
  cleanup();
  await changeLanguage('zh');
});

describe('the open items alert', () => {
  it('shows a row not calculated with its label, the person and the reason', () => {
    renderWithApp(<OpenItemsAlert items={[notCalculated]} />);
    const line = screen.getByTestId('salary-open-item');
    expect(line.getAttribute('data-kind')).toBe('rowNotCalculated');
    expect(within(line).getByText('未计算')).toBeTruthy();
    expect(within(line).getByText('缺基数（110101199003074518）')).toBeTruthy();
    expect(line.textContent).toContain(notCalculated.reason);
    expect(line.textContent).not.toContain('openItems.kind');
  });

  it('has the label in every language', async () => {
    for (const [language, label] of [['en', 'Not calculated'], ['es', 'No calculada'], ['ja', '未計算']]) {
      await changeLanguage(language as 'en');
      renderWithApp(<OpenItemsAlert items={[notCalculated]} />);
      expect(within(screen.getByTestId('salary-open-item')).getByText(label)).toBeTruthy();
      cleanup();
    }
  });
});
