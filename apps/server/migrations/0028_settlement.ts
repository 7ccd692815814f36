import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Month close I (issue 22): client settlement statements (结算单) and receivables.
 *
 * `accounts_settlement_terms`: how a client company is billed, from `valid_from` on (fee mode and value, fee tax
 * mode, SI billing lag, 残保金分摊, 工会经费, per-head items as `商保:30; 体检:15.50`).
 * `accounts_vat_regime`: the VAT regime of a dispatch entity from a month on (DIFF_5 / GENERAL_6 / SMALL, rate,
 * surtax ratio). No row is seeded: the operator chooses and dates the regime (2026 status of 差额 disputed).
 * `accounts_settlement`: one statement per (company, month, version); a later version supersedes an earlier one
 * that was sent, and the earlier one is kept. The header's figures and the terms and regime it used are kept as
 * JSON beside the columns the lists and the ledger read.
 * `accounts_settlement_line`: its lines (amounts in fen as a JSON array, see modules/settlement/store.ts).
 * `accounts_settlement_receipt`: 回款 against a statement. `accounts_settlement_event`: its state history.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_settlement_terms', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .month('valid_from', { notNull: true })
      .string('fee_mode', 50, { notNull: true })
      .money('fee_amount')
      .ratio('fee_rate')
      .string('fee_tax_mode', 50, { notNull: true })
      .string('si_billing_lag', 50, { notNull: true })
      .string('disabled_share_mode', 50, { notNull: true })
      .money('disabled_share_amount')
      .ratio('disabled_share_rate')
      .ratio('union_fee_ratio')
      .string('per_head_items', 500)
      .string('remark', 255)
      .timestamps()
      .unique('company_id', 'valid_from'),
  );
  await createTable(db, dialect, 'accounts_vat_regime', (t) =>
    t
      .id()
      .string('dispatch_company', 100, { notNull: true })
      .month('valid_from', { notNull: true })
      .string('regime', 50, { notNull: true })
      .ratio('rate', { notNull: true })
      .ratio('surtax_ratio', { notNull: true })
      .string('basis', 255)
      .timestamps()
      .unique('dispatch_company', 'valid_from'),
  );
  await createTable(db, dialect, 'accounts_settlement', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .string('dispatch_company', 100)
      .month('month', { notNull: true })
      .int('version', { notNull: true })
      // DRAFT | SENT | CONFIRMED | DISPUTED | INVOICED | PARTIAL | SETTLED
      .string('state', 20, { notNull: true })
      // 需重开: the salary month was 反确认'd after this statement was made
      .bool('needs_reopen', { notNull: true, default: false })
      // an earlier version kept after a new one was generated
      .bool('superseded', { notNull: true, default: false })
      .int('heads', { notNull: true })
      .money('current_due', { notNull: true })
      .money('arrears_in', { notNull: true })
      .money('total_due', { notNull: true })
      .money('received', { notNull: true, default: 0 })
      .string('vat_regime', 20)
      .text('header')
      .text('terms')
      .string('dispute_reason', 500)
      .string('invoice_no', 50)
      .date('invoice_date')
      .money('invoice_amount')
      .string('generated_by', 50)
      .timestamps()
      .unique('company_id', 'month', 'version')
      .index('month', 'state'),
  );
  await createTable(db, dialect, 'accounts_settlement_line', (t) =>
    t.id().int('settlement_id', { notNull: true }).int('seq', { notNull: true }).string('staff_name', 50).string('id_card_masked', 30).text('amounts').index('settlement_id', 'seq'),
  );
  await createTable(db, dialect, 'accounts_settlement_receipt', (t) =>
    t
      .id()
      .int('settlement_id', { notNull: true })
      .int('company_id', { notNull: true })
      .month('month', { notNull: true })
      .money('amount', { notNull: true })
      .date('receipt_date', { notNull: true })
      .string('note', 255)
      .string('username', 50)
      .timestamps()
      .index('settlement_id')
      .index('company_id', 'month'),
  );
  await createTable(db, dialect, 'accounts_settlement_event', (t) =>
    t.id().int('settlement_id', { notNull: true }).string('from_state', 20).string('to_state', 20, { notNull: true }).string('note', 500).string('username', 50).timestamps().index('settlement_id'),
  );
}
