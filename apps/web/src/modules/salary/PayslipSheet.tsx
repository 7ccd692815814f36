import { type PayslipSheetLine, payslipLines } from '@app/shared/contracts/payslips';
import { PAYSLIP_DEDUCTION_ITEMS, PAYSLIP_INCOME_ITEMS, PAYSLIP_PRE_TAX_DEDUCTIONS, payslipResource } from '@app/shared/resources/payslip';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Space } from 'antd';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../../crud/resourceLabels';
import { callContract } from '../../app/contractClient';
import { type Row, formatMoney } from '../../crud';
import { resourceListKey } from '../../crud/resourceClient';
import './salary.css';

/**
 * One payslip as a clean A5-like sheet: who, income items, deductions, net pay. Only items with an amount
 * (not empty, not zero) are listed. Printing (window.print) shows the sheet alone (print CSS in salary.css).
 */

const GROSS = 'benqi';
const NET = 'shifa';
/** Results of the tax computation, shown apart from the deductions. */
const TAX_INFO = new Set(['yingshui', 'shuihou']);

const hasAmount = (v: unknown) => v !== null && v !== undefined && v !== '' && Number(v) !== 0 && !Number.isNaN(Number(v));

export function payslipItems(row: Row) {
  const pick = (items: readonly (readonly [string, string])[]) =>
    items
      .filter(([n]) => hasAmount(row[n]))
      // 扣款（税前） is listed among the income with a minus sign, so that the lines add up to 应发 (P7)
      .map(([name, label]) => ({ name, label: fieldLabel('acPayslip', { name, label }), value: PAYSLIP_PRE_TAX_DEDUCTIONS.has(name) ? -Number(row[name]) : Number(row[name]) }));
  return {
    income: pick(PAYSLIP_INCOME_ITEMS.filter(([n]) => n !== GROSS)),
    deductions: pick(PAYSLIP_DEDUCTION_ITEMS.filter(([n]) => n !== NET && !TAX_INFO.has(n))),
    taxInfo: pick(PAYSLIP_DEDUCTION_ITEMS.filter(([n]) => TAX_INFO.has(n))),
  };
}

/** A generated payslip's lines from its salary row (contracts/payslips.ts payslipLines; yuan). */
export type SheetLine = PayslipSheetLine;
export interface SheetLines {
  lines: SheetLine[];
  gross: number;
  net: number;
}

/** Line names that are not fields of the salary row: their labels live in salary.json. */
const OWN_LINE_LABELS = new Set(['bonusSeparate', 'bonusMerged', 'unpaid']);

/**
 * The sheet's sections: from the salary row's lines when the payslip was generated (PB5, U13: every item of 应发 and
 * 实发 a line, 专项附加扣除 and 个税 even when 0, the taxable income never below 0), else from the payslip's columns.
 */
function sheetSections(row: Row, fromSalary: SheetLines | null | undefined, t: (key: string) => string) {
  if (!fromSalary) {
    const { income, deductions, taxInfo } = payslipItems(row);
    const gross = hasAmount(row[GROSS]) ? Number(row[GROSS]) : income.reduce((s, i) => s + i.value, 0);
    return { income, deductions, taxInfo, gross };
  }
  const label = (l: SheetLine) => (OWN_LINE_LABELS.has(l.name) ? t(`payslip.line.${l.name}`) : fieldLabel('accountsSalary', { name: l.name, label: l.label }));
  const of = (section: SheetLine['section']) =>
    fromSalary.lines.filter((l) => l.section === section).map((l) => ({ name: l.name, label: label(l), value: l.amount, note: l.note ? t(`payslip.${l.note}`) : undefined }));
  return { income: of('income'), deductions: of('deduction'), taxInfo: of('info'), gross: fromSalary.gross };
}

export function PayslipSheet({ row, lines }: { row: Row; lines?: SheetLines | null }) {
  const { t } = useTranslation('salary');
  const { income, deductions, taxInfo, gross } = sheetSections(row, lines, t);
  const info: [string, unknown][] = [
    [t('payslip.name'), row.name],
    [t('payslip.idCard'), row.idCard],
    [t('payslip.gonghao'), row.gonghao],
    [t('payslip.company'), row.mingcheng],
    [t('payslip.bank'), row.bank],
    [t('payslip.bankNumber'), row.bankNumber],
  ];
  const shownInfo = info.filter(([, v]) => v !== null && v !== undefined && v !== '');
  const section = (title: string, items: { name: string; label: string; value: number; note?: string }[]) => (
    <>
      <tr>
        <td colSpan={2} className="payslip-section">
          {title}
        </td>
      </tr>
      {items.length === 0 ? (
        <tr>
          <td colSpan={2}>{t('payslip.none')}</td>
        </tr>
      ) : (
        items.map((i) => (
          <Fragment key={i.name}>
            <tr data-item={i.name}>
              <th>{i.label}</th>
              <td className="num">{formatMoney(i.value)}</td>
            </tr>
            {i.note ? (
              <tr data-note={i.name}>
                <td colSpan={2} className="payslip-note">
                  {i.note}
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))
      )}
    </>
  );
  return (
    <div className="payslip-sheet" data-testid="payslip-sheet">
      <h2>{t('payslip.sheetTitle')}</h2>
      <div className="payslip-sub">{row.month}</div>
      <table>
        <tbody>
          {Array.from({ length: Math.ceil(shownInfo.length / 2) }, (_, i) => shownInfo.slice(i * 2, i * 2 + 2)).map((pair) => (
            <tr key={pair[0][0]}>
              {pair.map(([label, value]) => (
                <td key={label} colSpan={pair.length === 1 ? 2 : 1}>
                  <span style={{ color: '#8c8c8c' }}>{t('payslip.labelled', { label })}</span>
                  {String(value)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <tbody>
          {section(t('payslip.income'), income)}
          <tr className="payslip-total">
            <th>{t('payslip.gross')}</th>
            <td className="num">{formatMoney(gross)}</td>
          </tr>
          {section(t('payslip.deductions'), deductions)}
          {taxInfo.length > 0 && section(t('payslip.other'), taxInfo)}
        </tbody>
      </table>
      <div className="payslip-net" data-testid="payslip-net">
        <span>{t('payslip.net')}</span>
        <strong>¥ {formatMoney(row[NET] ?? 0)}</strong>
      </div>
      {row.beizhu ? (
        <div className="payslip-foot">
          {t('payslip.labelled', { label: t('payslip.remark') })}
          {String(row.beizhu)}
        </div>
      ) : null}
    </div>
  );
}

/** The payslip sheet in a modal with 打印 (window.print) and 关闭. */
export function PayslipPrintModal({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { t } = useTranslation('salary');
  // a generated payslip is printed from its salary row's lines; an imported one (lines: null) from its columns
  const lines = useQuery({
    // under the payslip list's key: a salary change refreshes that list (crud/mutations.ts) and so these lines too
    queryKey: [...resourceListKey(payslipResource.name), 'lines', row?.id],
    queryFn: () => callContract(payslipLines, { query: { id: Number(row?.id) } }),
    enabled: row?.id !== undefined && row?.id !== null,
  });
  const fromSalary: SheetLines | null = lines.data?.lines ? { lines: lines.data.lines, gross: Number(lines.data.gross), net: Number(lines.data.net) } : null;
  return (
    <Modal
      open={!!row}
      onCancel={onClose}
      width={640}
      title={t('payslip.view')}
      wrapClassName="payslip-print-root"
      destroyOnHidden
      footer={
        <Space className="payslip-no-print">
          <Button onClick={onClose}>{t('payslip.close')}</Button>
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="payslip-print">
            {t('payslip.print')}
          </Button>
        </Space>
      }
    >
      <div className="payslip-modal-body">{row && !lines.isLoading && <PayslipSheet row={row} lines={fromSalary} />}</div>
    </Modal>
  );
}
