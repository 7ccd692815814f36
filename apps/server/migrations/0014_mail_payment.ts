import { createTable } from '../src/core/tableBuilder.ts';
import type { MigrationContext } from './index.ts';

/**
 * E-mail and payment tools (issue 12 items 4-5). The two configurations are single rows (id 1) whose secrets
 * (SMTP password, application private key, Alipay public key) are sealed with the deployment's SecretBox;
 * the mail log records every message sent from the e-mail tool or by the server (verification codes), the
 * order table every test payment with its amount in integer fen.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await createTable(db, dialect, 'tool_email_config', (t) =>
    t
      .id()
      .string('from_user', 100)
      .string('user_name', 100)
      .text('pass_sealed')
      .string('host', 255)
      .int('port')
      .bool('ssl_enable', { notNull: true, default: true })
      .string('update_by', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'tool_email_log', (t) =>
    t
      .id()
      .string('subject', 200)
      .text('tos')
      .int('recipient_count')
      // SENT or FAILED
      .string('status', 10, { notNull: true, index: true })
      .string('message_id', 255)
      .string('error', 500)
      // 'tool' (e-mail tool) or 'code' (change-e-mail verification code)
      .string('kind', 10)
      .string('create_by', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'tool_alipay_config', (t) =>
    t
      .id()
      .string('app_id', 32)
      .string('seller_id', 32)
      .text('private_key_sealed')
      .text('public_key_sealed')
      .string('gateway', 255)
      .string('return_url', 500)
      .string('notify_url', 500)
      .string('update_by', 50)
      .timestamps(),
  );
  await createTable(db, dialect, 'tool_alipay_order', (t) =>
    t
      .id()
      .string('out_trade_no', 64, { notNull: true, unique: true })
      .string('subject', 256, { notNull: true })
      .string('body', 400)
      .money('amount_fen', { notNull: true })
      // PC (alipay.trade.page.pay) or WAP (alipay.trade.wap.pay)
      .string('channel', 8, { notNull: true })
      // WAITING -> PAID | CLOSED
      .string('state', 10, { notNull: true, index: true })
      .string('trade_no', 64)
      .string('buyer_id', 64)
      .string('paid_time', 32)
      .string('create_by', 50)
      .timestamps(),
  );
}
