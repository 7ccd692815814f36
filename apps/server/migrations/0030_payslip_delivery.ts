import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * Payslip delivery with the employee's confirmation (Month close III, issue 24 item 1; reference month-close.md §B5).
 *
 * `accounts_payslip_publication`: one row per publishing of a company's month. A correction (反确认, a new 确认 and
 * a new 发布) is a new row with the next version; the older one is marked superseded, never changed otherwise.
 * A scheduled row (`publish_at` in the future) becomes published when the payslip-notice job runs after that time.
 *
 * `accounts_payslip_receipt`: one row per person and version: the payslip as it was published (JSON, so the
 * record survives a later 反确认 that deletes the generated payslips: 国务院令第724号 §15 asks for 3 years), its
 * SHA-256, and the evidence of first view, confirmation (time, IP, browser, the hash seen) or objection.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'accounts_payslip_publication', (t) =>
    t
      .id()
      .int('company_id', { notNull: true })
      .string('company_name', 100)
      .month('month', { notNull: true })
      .int('version', { notNull: true })
      // scheduled | published | recalled | superseded
      .string('state', 12, { notNull: true })
      .datetime('publish_at')
      .datetime('published_time')
      .datetime('recalled_time')
      // silence for this many days after publishing counts as 逾期未反馈 (never as 已确认)
      .int('confirm_days', { notNull: true })
      .string('published_by', 50)
      // the web address the notices link to (the clerk's own site address when publishing)
      .string('site_url', 200)
      .datetime('notified_time')
      .string('notice_summary', 500)
      .timestamps()
      .unique('company_id', 'month', 'version')
      .index('state', 'publish_at'),
  );
  await createTable(db, dialect, 'accounts_payslip_receipt', (t) =>
    t
      .id()
      .int('publication_id', { notNull: true })
      .int('company_id', { notNull: true })
      .month('month', { notNull: true })
      .int('version', { notNull: true })
      .string('id_card', 18, { notNull: true })
      .string('staff_name', 50)
      .text('slip')
      .string('slip_hash', 64, { notNull: true })
      // published | viewed | confirmed | objected | answered (逾期未反馈 is derived from `deadline`)
      .string('state', 12, { notNull: true })
      .datetime('deadline')
      .datetime('viewed_time')
      .string('viewed_ip', 64)
      .datetime('confirmed_time')
      .string('confirmed_ip', 64)
      .string('confirmed_ua', 300)
      .string('confirmed_hash', 64)
      .text('objection')
      .datetime('objection_time')
      .string('objection_ip', 64)
      .text('reply')
      .datetime('reply_time')
      .string('reply_by', 50)
      .timestamps()
      .unique('publication_id', 'id_card')
      .index('id_card')
      .index('company_id', 'month'),
  );
}
