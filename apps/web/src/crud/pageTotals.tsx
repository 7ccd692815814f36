import { fenToYuan, yuanToFen } from '@app/shared/payroll';
import { Table } from 'antd';
import type { ReactNode } from 'react';
import { formatMoney } from './format';
import type { Row } from './useResourceList';

/**
 * Finding U5: a clerk checks a month's gross and net before 确认 against a 合计 row. Amounts are added as
 * integer fen (adding yuan as floats drifts: 0.1 + 0.2 is not 0.3), so the total is exactly the sum printed.
 */

/** The exact sum of `field` over `rows` in fen; empty cells count as zero, an unreadable amount as unknown (null). */
export function sumFen(rows: readonly Row[], field: string): number | null {
  let total = 0;
  for (const row of rows) {
    const v = row[field];
    if (v === null || v === undefined || v === '') continue;
    try {
      total += yuanToFen(typeof v === 'number' ? v : String(v).replace(/,/g, ''), field);
    } catch {
      return null;
    }
  }
  return total;
}

/** The sum formatted like the cells above it ('12,345.67'), '' when unknown. */
export function formatFenTotal(fen: number | null): string {
  return fen === null ? '' : formatMoney(fenToYuan(fen));
}

export interface PageTotalsProps {
  rows: readonly Row[];
  /** Column keys in display order (the table's own columns, without selection and expand columns). */
  columnKeys: readonly string[];
  /** Columns summed: money fields. */
  sumKeys: readonly string[];
  /** Columns antd puts before the data columns (selection boxes, expand icons). */
  leadingColumns: number;
  label: ReactNode;
}

/** One summary row: the label in the first data cell, the exact sums under the summed columns. */
export function PageTotalsRow({ rows, columnKeys, sumKeys, leadingColumns, label }: PageTotalsProps) {
  const leading = leadingColumns > 0 ? <Table.Summary.Cell index={0} colSpan={leadingColumns} /> : null;
  const data = columnKeys.map((key, i) => {
    const summed = sumKeys.includes(key);
    return (
      <Table.Summary.Cell key={key} index={leadingColumns + i} align={summed ? 'right' : undefined}>
        {i === 0 ? (
          <strong data-testid="page-totals-label">{label}</strong>
        ) : summed ? (
          <strong data-testid={`page-total-${key}`}>{formatFenTotal(sumFen(rows, key))}</strong>
        ) : null}
      </Table.Summary.Cell>
    );
  });
  return (
    <Table.Summary.Row className="crud-page-totals">
      {leading}
      {data}
    </Table.Summary.Row>
  );
}
