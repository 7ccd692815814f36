/**
 * What 计算 could not use, as the server answers it (POST /api/accountsSalary/calculate `report`, GET
 * /api/accountsSalary/report) and the salary screen shows it: one declaration for both sides.
 */

/** rowNotCalculated: a row 计算 left uncalculated; the next three: an input no salary row reads; unrecordedMonths: months employed without salary. */
export type ReportItemKind = 'rowNotCalculated' | 'taxDeduction' | 'taxOpening' | 'staffExtra' | 'unrecordedMonths';

export interface CalculationReportItem {
  kind: ReportItemKind;
  staffName: string | null;
  idCard: string;
  /** The month the input is for (期初累计数据: the month its figures run to; unrecorded months: the month calculated). */
  month: string;
  /** Unrecorded months: how many months employed have no salary recorded; null otherwise. */
  months: number | null;
  /** The name the input was saved under (派遣单位 of a tax input, 单位名称 of an overtime row), when it has one. */
  savedUnder: string | null;
  /** A row not calculated: the field at fault (e.g. yanglaoBase) when the problem is one field's; null otherwise. */
  field: string | null;
  /** Why the calculation did not use it: a code of the error catalogue and its text in the caller's language. */
  code: string;
  reason: string;
}
