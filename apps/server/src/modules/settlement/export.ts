import type { FastifyInstance, FastifyReply } from 'fastify';
import { SETTLEMENT_STATE_LABELS, type SettlementState } from '@app/shared/contracts/settlement';
import { fenToYuan } from '@app/shared/payroll/money';
import type { SettlementHeader } from '@app/shared/payroll/settlement';
import { sendXlsx, type XlsxColumn, XlsxFormula } from '../../core/excel/writeXlsx.ts';
import { decodeLine, LINES } from './store.ts';

/**
 * 结算单 as an .xlsx for the client (issue 22 item 6): a header block (months, entity, version, state, VAT regime),
 * the lines, a 合计 row of SUM formulas with the exact fen sums cached, the totals down to 合计应收, and a
 * 用工单位确认 signature block. File name: 结算单_<单位>_<月份>[_v<n>].xlsx.
 */

const LINE_COLUMNS = [
  ['gross', '应发工资'],
  ['personalSi', '个人社保(代扣)'],
  ['personalHf', '个人公积金(代扣)'],
  ['tax', '个人所得税(代扣)'],
  ['net', '实发工资'],
  ['employerYanglao', '养老(单位)'],
  ['employerYiliao', '医疗含生育(单位)'],
  ['employerShiye', '失业(单位)'],
  ['employerGongshang', '工伤(单位)'],
  ['employerGongjijin', '公积金(单位)'],
  ['employerBackPay', '补缴社保(单位)'],
] as const;
const AFTER_ITEMS = [
  ['disabledShare', '残保金分摊'],
  ['unionFee', '工会经费'],
  ['fee', '服务费'],
  ['total', '合计'],
] as const;

const REGIME_LABELS: Record<string, string> = { DIFF_5: '差额征税', GENERAL_6: '一般计税', SMALL: '小规模纳税人' };

export function settlementFileName(companyName: string, month: string, version: number): string {
  return `结算单_${companyName}_${month}${version > 1 ? `_v${version}` : ''}`.replace(/[\\/:*?"<>|]/g, '_');
}

type Cell = string | number | XlsxFormula | null;
type XRow = Record<string, Cell>;

export async function sendSettlementXlsx(app: FastifyInstance, reply: FastifyReply, row: Record<string, unknown>): Promise<FastifyReply> {
  const h = JSON.parse(String(row.header)) as SettlementHeader;
  const terms = JSON.parse(String(row.terms)) as Record<string, string | number>;
  const lines = await app.ctx.db.selectFrom(LINES).select(['seq', 'staff_name', 'id_card_masked', 'amounts']).where('settlement_id', '=', Number(row.id)).orderBy('seq').execute();
  const amountKeys = [...LINE_COLUMNS.map(([k]) => k), ...h.itemNames.map((_, i) => `item${i}`), ...AFTER_ITEMS.map(([k]) => k)];
  const amountLabels = [...LINE_COLUMNS.map(([, l]) => l), ...h.itemNames, ...AFTER_ITEMS.map(([, l]) => l)];
  const keys = ['c0', 'c1', 'c2', ...amountKeys];
  const y = (fen: number) => fenToYuan(Number(fen));
  const company = String(row.company_name ?? '');
  const month = String(row.month);
  const state = SETTLEMENT_STATE_LABELS[String(row.state) as SettlementState] ?? String(row.state);

  const rows: XRow[] = [];
  const pair = (...cells: Cell[]): XRow => Object.fromEntries(cells.map((c, i) => [keys[i], c]));
  // header block
  rows.push(pair('结算月份', month, '社保月份', String(terms.siMonth ?? month)));
  rows.push(pair('用工单位', company, '派遣单位', String(row.dispatch_company ?? '')));
  rows.push(pair('版本', `第${row.version}版`, '状态', `${state}${Number(row.needs_reopen) === 1 ? '（需重开）' : ''}`));
  rows.push(pair('工资人数', h.heads, '计税方式', `${REGIME_LABELS[String(terms.vatRegime)] ?? terms.vatRegime} ${terms.vatRate}`));
  rows.push({});
  // lines
  rows.push(Object.fromEntries(keys.map((k, i) => [k, i === 0 ? '序号' : i === 1 ? '姓名' : i === 2 ? '身份证号' : amountLabels[i - 3]])));
  const firstLineRow = rows.length + 2; // the sheet's own header row is row 1
  for (const l of lines) {
    const { amounts, items } = decodeLine(String(l.amounts));
    const r: XRow = { c0: Number(l.seq), c1: (l.staff_name as string) ?? '', c2: (l.id_card_masked as string) ?? '' };
    for (const [k] of LINE_COLUMNS) r[k] = y(amounts[k]);
    items.forEach((v, i) => {
      r[`item${i}`] = y(v);
    });
    for (const [k] of AFTER_ITEMS) r[k] = y(amounts[k]);
    rows.push(r);
  }
  const lastLineRow = firstLineRow + lines.length - 1;
  const sum = (fen: number) => (lines.length ? new XlsxFormula((col) => `SUM(${col}${firstLineRow}:${col}${lastLineRow})`, y(fen)) : 0);
  const totalRow: XRow = { c0: '合计', c1: `共${h.lines}行，${h.heads}人` };
  for (const [k] of LINE_COLUMNS) totalRow[k] = sum(h.sums[k] ?? 0);
  h.itemSums.forEach((v, i) => {
    totalRow[`item${i}`] = sum(v);
  });
  for (const [k] of AFTER_ITEMS) totalRow[k] = sum(h.sums[k]);
  rows.push(totalRow);
  rows.push({});
  // totals down to 合计应收
  const taxNote = terms.feeTaxMode === 'EXCLUSIVE' ? '（不含税，另加税金）' : '（含税，增值税及附加为价内税，仅列示）';
  rows.push(pair('代收代付（工资、单位社保公积金）', y(h.passThrough)));
  rows.push(pair('服务费', y(h.sums.fee)));
  rows.push(pair('费用小计', y(h.subtotal)));
  rows.push(pair(`增值税${taxNote}`, y(h.vat), '计税依据', y(h.vatBase)));
  rows.push(pair('附加税费', y(h.surtax)));
  if (h.taxCharged) rows.push(pair('税金（另加）', y(h.taxCharged)));
  rows.push(pair('本期应收', y(h.currentDue)));
  rows.push(pair(h.arrearsIn >= 0 ? '上期结转欠款' : '上期结转挂账（多收）', y(h.arrearsIn)));
  rows.push(pair('合计应收', y(h.totalDue)));
  rows.push({});
  // 用工单位确认
  rows.push(pair('用工单位确认：以上结算金额经核对无误。'));
  rows.push(pair('用工单位（盖章）：', '', '派遣单位（盖章）：', String(row.dispatch_company ?? '')));
  rows.push(pair('经办人签字：', '', '经办人签字：'));
  rows.push(pair('日期：', '', '日期：'));

  const columns: XlsxColumn<XRow>[] = keys.map((k, i) => ({
    header: i === 0 ? `${company} ${month} 结算单` : '',
    key: k,
    kind: i < 3 ? 'text' : 'money',
    width: i === 0 ? 16 : i === 1 ? 30 : i === 2 ? 22 : 14,
  }));
  return sendXlsx(reply, { fileName: settlementFileName(company, month, Number(row.version)), sheetName: `${month}结算单`, columns, rows });
}
