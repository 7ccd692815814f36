import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Month close II (issue 23): bank payroll files (代发工资) and their return files (回盘).
 *
 * `accounts_bank_template`: a bank's file layout as data (shared/resources/bankTemplate.ts), seeded with three:
 * ICBC 批量支付 (xls, the client tool's columns), BOC 快捷代发 (GBK text, header fields as month-close.md §B3 lists
 * them) and a generic CSV. The banks publish no standard (§B3 finding 3): the seeds are starting points to check
 * against each bank's current client at deployment (§9 item 4), which is why they are rows and not code.
 *
 * `accounts_payout_batch`: one file to the bank for a company's confirmed month (kind pay) or for the failed rows of
 * an earlier batch (kind repay, `parent_id`), state pending → exported (locked) → done / part_failed.
 * `accounts_payout_row`: one payee of a batch with the 序号 written in the file, the account and name as sent, the
 * amount in fen, and what the bank answered (result ok / failed, reason); `repaid_by` links a failed row to its row
 * in the re-pay batch, so a row is never in two open batches and a paid row never in any.
 */

const GBK = 'GBK';
const cols = (list: object[]) => JSON.stringify(list);

const SEEDS = [
  {
    template_name: '工商银行 批量支付（xls）',
    bank: '中国工商银行',
    version: '3.0',
    file_type: 'xls',
    encoding: GBK,
    delimiter: '',
    title_row: 1,
    purpose: '工资及退休金',
    file_name_pattern: '批量支付_{batchNo}',
    header_lines: '',
    trailer_lines: '',
    columns: cols([
      { title: '付款账号开户行', value: '' },
      { title: '付款账号', field: 'payerAccount' },
      { title: '付款账号名称', field: 'payerName' },
      { title: '收款账号开户行', field: 'bankName' },
      { title: '省份名', value: '' },
      { title: '城市名', value: '' },
      { title: '收款账号', field: 'account' },
      { title: '收款账号名称', field: 'name' },
      { title: '金额', field: 'amount' },
      { title: '汇款用途', field: 'purpose' },
      { title: '备注', field: 'remark' },
      { title: '短信通知手机号码', field: 'phone' },
    ]),
    // the client's result file repeats the 12 columns and adds 处理状态 and 失败原因; rows come back in file order
    return_mapping: JSON.stringify({ skipLines: 1, account: 7, amount: 9, status: 13, reason: 14, successValues: ['成功', '交易成功', '处理成功'] }),
    remark: '按工行企业网银客户端当前的批量支付模板核对后使用',
  },
  {
    template_name: '中国银行 快捷代发（txt）',
    bank: '中国银行',
    version: '',
    file_type: 'txt',
    encoding: GBK,
    delimiter: '|',
    title_row: 0,
    purpose: '工资',
    file_name_pattern: '格式文本数据_{batchNo}',
    // 客户业务编号|付款行联行号|付款人账号|收款行|币种|批总金额|批总笔数|用途|付款日期|附言
    header_lines: JSON.stringify(['{batchNo}||{payerAccount}||CNY|{total}|{count}|{purpose}|{date}|']),
    trailer_lines: '',
    columns: cols([
      { title: '收款行行号', field: 'cnaps' },
      { title: '金额', field: 'amount' },
      { title: '收款人账号', field: 'account' },
      { title: '收款人姓名', field: 'name' },
      { title: '证件类型', value: '01' },
      { title: '证件号', field: 'idNumber' },
      { title: '用途', field: 'purpose' },
    ]),
    return_mapping: JSON.stringify({ skipLines: 1, account: 3, amount: 2, status: 8, reason: 9, successValues: ['成功', '0000'] }),
    remark: '付款行联行号、收款行请在批头行中按本单位填写；按中行客户端当前模板核对后使用',
  },
  {
    template_name: '通用 CSV',
    bank: '通用',
    version: '',
    file_type: 'csv',
    encoding: 'UTF-8-BOM',
    delimiter: ',',
    title_row: 1,
    purpose: '工资',
    file_name_pattern: '代发工资_{batchNo}',
    header_lines: '',
    trailer_lines: '',
    columns: cols([
      { title: '序号', field: 'seq' },
      { title: '收款账号', field: 'account' },
      { title: '户名', field: 'name' },
      { title: '金额', field: 'amount' },
      { title: '证件号码', field: 'idNumber' },
      { title: '开户行', field: 'bankName' },
      { title: '用途', field: 'purpose' },
    ]),
    // the return file is this file with 状态 and 原因 appended
    return_mapping: JSON.stringify({ skipLines: 1, seq: 1, account: 2, amount: 4, status: 8, reason: 9, successValues: ['成功'] }),
    remark: '',
  },
];

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_bank_template', (t) =>
    t
      .id()
      .string('template_name', 100, { notNull: true })
      .string('bank', 50, { notNull: true })
      .string('version', 30)
      .string('file_type', 10, { notNull: true })
      .string('encoding', 20, { notNull: true })
      .string('delimiter', 10)
      .bool('title_row', { notNull: true, default: true })
      .string('payer_account', 40)
      .string('payer_name', 100)
      .string('purpose', 50)
      .string('file_name_pattern', 100)
      .text('header_lines')
      .text('columns')
      .text('trailer_lines')
      .text('return_mapping')
      .string('remark', 255)
      .timestamps()
      .unique('template_name'),
  );
  const now = new Date().toISOString();
  await db
    .insertInto('accounts_bank_template')
    .values(SEEDS.map((s) => ({ ...s, create_time: now, update_time: now })))
    .execute();

  await createTable(db, dialect, 'accounts_payout_batch', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .string('dispatch_company', 100)
      .month('month', { notNull: true })
      .int('template_id', { notNull: true })
      .string('template_name', 100)
      // pay | repay
      .string('kind', 10, { notNull: true })
      .int('parent_id')
      // pending | exported | part_failed | done
      .string('state', 20, { notNull: true })
      .int('row_count', { notNull: true })
      .money('total', { notNull: true })
      .string('file_name', 200)
      .datetime('export_time')
      .string('export_by', 100)
      .datetime('return_time')
      .string('create_by', 100)
      .timestamps()
      .index('company_id', 'month'),
  );
  await createTable(db, dialect, 'accounts_payout_row', (t) =>
    t
      .id()
      .int('batch_id', { notNull: true })
      .int('seq', { notNull: true })
      .int('salary_id')
      .int('staff_id')
      .string('staff_name', 50, { notNull: true })
      .string('id_card', 30)
      .string('account', 40, { notNull: true })
      .string('account_name', 50, { notNull: true })
      .string('bank_name', 100)
      .string('phone', 20)
      .money('amount', { notNull: true })
      // the clerk confirmed a card that fails the Luhn check (some older cards do)
      .bool('luhn_override', { notNull: true, default: false })
      // '' (no answer yet) | ok | failed
      .string('result', 10, { notNull: true, default: '' })
      .string('reason', 200)
      .int('repaid_by')
      .timestamps()
      .unique('batch_id', 'seq')
      .index('salary_id'),
  );
}
