import { SALARY_ADJUSTMENT_MAX_YUAN, SALARY_BONUS_MAX_YUAN } from '@app/shared/resources/salary';
import { DatePicker, Form, InputNumber } from 'antd';
import dayjs from 'dayjs';
import type React from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../app/request';
import type { Row } from '../../crud';

/**
 * 补发 / 补扣 with the month each refers to, and 经济补偿金 (issue 20 item 7), edited with the row's inline edit
 * (加班费/扣款): shown under the search bar while a row is being edited, saved by the row's 保存.
 */
export interface PayItemValues {
  backPay: number | null;
  backPayMonth: string | null;
  backDeduct: number | null;
  backDeductMonth: string | null;
  severance: number | null;
}
export type PayItemField = keyof PayItemValues;
export type PayItemErrors = Partial<Record<PayItemField, string>>;

const num = (v: unknown) => (v == null || v === '' ? 0 : Number(v));

export const payItemsOf = (row: Row): PayItemValues => ({
  backPay: num(row.backPay),
  backPayMonth: row.backPayMonth ? String(row.backPayMonth) : null,
  backDeduct: num(row.backDeduct),
  backDeductMonth: row.backDeductMonth ? String(row.backDeductMonth) : null,
  severance: num(row.severance),
});

/** The request body's part: an amount of 0 clears its month (the server wants a month only with an amount). */
export const payItemsBody = (v: PayItemValues) => ({
  backPay: num(v.backPay),
  backPayMonth: num(v.backPay) ? v.backPayMonth : null,
  backDeduct: num(v.backDeduct),
  backDeductMonth: num(v.backDeduct) ? v.backDeductMonth : null,
  severance: num(v.severance),
});

/** Checked before sending, with the server's rule (the month is required with an amount, before the salary month). */
export function checkPayItems(v: PayItemValues, salaryMonth: string, t: (k: string, o?: Record<string, unknown>) => string): PayItemErrors {
  const errors: PayItemErrors = {};
  for (const [amount, field] of [
    ['backPay', 'backPayMonth'],
    ['backDeduct', 'backDeductMonth'],
  ] as const) {
    if (!num(v[amount])) continue;
    const m = v[field];
    if (!m) errors[field] = t('payItems.monthRequired');
    else if (m >= salaryMonth) errors[field] = t('payItems.monthBefore', { month: salaryMonth });
  }
  return errors;
}

/**
 * Puts a refusal of the server on the field it concerns: its field errors when it names them, else by the item the
 * calculation's message names (补发…/补扣…/经济补偿金…). Empty when the refusal is about something else.
 */
export function payItemErrorsOf(err: unknown): PayItemErrors {
  if (!(err instanceof RequestError)) return {};
  const out: PayItemErrors = {};
  for (const [k, msg] of Object.entries(err.fieldErrors ?? {})) {
    if (k in EMPTY) out[k as PayItemField] = msg;
  }
  if (Object.keys(out).length) return out;
  const m = err.message;
  if (m.includes('补发')) out[m.includes('所属月份') ? 'backPayMonth' : 'backPay'] = m;
  else if (m.includes('补扣')) out[m.includes('所属月份') ? 'backDeductMonth' : 'backDeduct'] = m;
  else if (m.includes('经济补偿金')) out.severance = m;
  return out;
}
const EMPTY: Record<PayItemField, true> = { backPay: true, backPayMonth: true, backDeduct: true, backDeductMonth: true, severance: true };

// An inline form item is as wide as its content: a long refusal under a field (the server's message names the row and
// what to fill in) would stretch it, and the page, past the screen. Capped at the panel's width, the message wraps.
const ITEM: React.CSSProperties = { maxWidth: '100%' };
const PANEL: React.CSSProperties = { margin: '8px 0', padding: '8px 12px', border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 6, rowGap: 8 };

export function PayItemsEditor({
  staffName,
  salaryMonth,
  value,
  errors,
  onChange,
}: {
  staffName: string;
  salaryMonth: string;
  value: PayItemValues;
  errors: PayItemErrors;
  onChange: (v: PayItemValues, changed: PayItemField) => void;
}) {
  const { t } = useTranslation('salary');
  const set = (field: PayItemField, v: unknown) => onChange({ ...value, [field]: v }, field);
  const status = (f: PayItemField) => (errors[f] ? ('error' as const) : undefined);
  const amount = (field: 'backPay' | 'backDeduct' | 'severance', max: number) => (
    <Form.Item label={t(`payItems.${field}`)} validateStatus={status(field)} help={errors[field]} htmlFor={`salary-input-${field}`} style={ITEM}>
      <InputNumber
        id={`salary-input-${field}`}
        size="small"
        min={0}
        max={max}
        precision={2}
        value={value[field]}
        onChange={(v) => set(field, v === null ? null : Number(v))}
        style={{ width: 130 }}
        data-testid={`salary-input-${field}`}
      />
    </Form.Item>
  );
  // the month a 补发/补扣 refers to: only months before the salary month can be picked
  const monthPicker = (field: 'backPayMonth' | 'backDeductMonth') => (
    <Form.Item label={t(`payItems.${field}`)} validateStatus={status(field)} help={errors[field]} htmlFor={`salary-input-${field}`} style={ITEM}>
      <DatePicker
        id={`salary-input-${field}`}
        size="small"
        picker="month"
        format="YYYY-MM"
        value={value[field] ? dayjs(`${value[field]}-01`) : null}
        disabledDate={(d) => d.format('YYYY-MM') >= salaryMonth}
        onChange={(d) => set(field, d ? d.format('YYYY-MM') : null)}
        style={{ width: 120 }}
        data-testid={`salary-input-${field}`}
      />
    </Form.Item>
  );
  return (
    <section style={PANEL} aria-label={t('payItems.title', { name: staffName })} data-testid="salary-pay-items">
      <div style={{ fontWeight: 600, marginBottom: 6 }}>{t('payItems.title', { name: staffName })}</div>
      <Form layout="inline" size="small" component="div">
        {amount('backPay', SALARY_ADJUSTMENT_MAX_YUAN)}
        {monthPicker('backPayMonth')}
        {amount('backDeduct', SALARY_ADJUSTMENT_MAX_YUAN)}
        {monthPicker('backDeductMonth')}
        {amount('severance', SALARY_BONUS_MAX_YUAN)}
      </Form>
    </section>
  );
}
