import type { FastifyInstance } from 'fastify';
import { emailSettings, listEmailLogs, MAX_RECIPIENTS, saveEmailSettings, sendEmail, testEmailSettings } from '@app/shared/contracts/email';
import { AppError } from '../../../core/errors.ts';
import { parsePaging } from '../../../crud/listQuery.ts';
import { countOf, orderedPage } from '../../../crud/pagedQuery.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { isBlankHtml, prepareMailBody } from './content.ts';
import { SmtpMailSender } from './mailer.ts';
import { checkSettings, type EmailDb, isEmailAddress, readSettingsView, saveSettings, settingsFromForm } from './settings.ts';

/** Spec §7 E-mail: GET, PUT, POST /api/email; plus the connection test and the mail log. */

export { MAX_RECIPIENTS };
/** Messages one user may send from the tool per minute. */
export const SENDS_PER_MINUTE = 30;

/** The recipient list checked by the spec's rules: each non-empty and well formed, at least one; duplicates dropped. */
function checkRecipients(raw: unknown[] | undefined): string[] {
  if (!raw || raw.length === 0) throw new AppError('EMAIL_TOS_EMPTY', {}, { tos: { code: 'EMAIL_TOS_EMPTY' } });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of raw) {
    const value = typeof item === 'string' ? item.trim() : typeof item === 'object' && item !== null && 'value' in item ? String((item as { value: unknown }).value ?? '').trim() : '';
    if (!value) throw new AppError('EMAIL_TO_REQUIRED', {}, { tos: { code: 'EMAIL_TO_REQUIRED' } });
    if (!isEmailAddress(value)) throw new AppError('EMAIL_TO_FORMAT', {}, { tos: { code: 'EMAIL_TO_FORMAT' } });
    const key = value.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(value);
    }
  }
  return out;
}

export function registerEmailRoutes(fastify: FastifyInstance): void {
  const app = fastify;
  const db: EmailDb = app.ctx.db;
  const { secrets, cache } = app.ctx;
  // app.ctx.mail is the SMTP sender (app.ts); a test app given another sender still tests and sends through SMTP
  const mailer = app.ctx.mail instanceof SmtpMailSender ? app.ctx.mail : new SmtpMailSender(app.ctx.db, secrets, { hostAllowlist: app.ctx.config.smtpHostAllowlist });

  routeContract(app, emailSettings, () => readSettingsView(db));

  routeContract(app, saveEmailSettings, async (req, reply) => {
    // a host the server may not connect to is refused now, not at the first message (findings N5)
    await mailer.checkHost(checkSettings(req.body).host);
    await saveSettings(db, secrets, req.body, req.user!.username);
    return reply.code(204).send();
  });

  routeContract(app, testEmailSettings, async (req) => {
    const settings = await settingsFromForm(db, secrets, req.body);
    await mailer.verify(settings);
    return { message: '连接成功' };
  });

  routeContract(app, sendEmail, async (req) => {
    const subject = (req.body.subject ?? '').replace(/[\r\n]+/g, ' ').trim();
    if (!subject) throw new AppError('EMAIL_SUBJECT_REQUIRED', {}, { subject: { code: 'EMAIL_SUBJECT_REQUIRED' } });
    const to = checkRecipients(req.body.tos);
    const content = req.body.content ?? '';
    if (isBlankHtml(content)) throw new AppError('EMAIL_CONTENT_REQUIRED', {}, { content: { code: 'EMAIL_CONTENT_REQUIRED' } });
    const body = await prepareMailBody(content);
    if (!(await mailer.configured())) throw new AppError('EMAIL_NOT_CONFIGURED', {});
    if ((await cache.incr(`email-send:${req.user!.id}`, 60)) > SENDS_PER_MINUTE) throw new AppError('EMAIL_SEND_RATE', { max: SENDS_PER_MINUTE });
    const mail = { to, subject, html: body.html, attachments: body.images, kind: 'tool' as const, sentBy: req.user!.username };
    if (req.body.separately) return { messageId: null, ...(await mailer.sendSeparately(mail)) };
    const { messageId, rejected } = await mailer.sendMail(mail);
    return { messageId: messageId ?? null, sent: to.length - rejected.length, failed: rejected.map((r) => ({ to: r, reason: '收件地址被邮件服务器拒收' })) };
  });

  const sortable = new Map([
    ['id', 'id'],
    ['createTime', 'create_time'],
    ['status', 'status'],
  ]);
  routeContract(app, listEmailLogs, async (req) => {
    const paging = parsePaging(req.query, sortable, [['id', 'desc']]);
    let qb = db.selectFrom('tool_email_log');
    if (req.query.status) qb = qb.where('status', '=', req.query.status.toUpperCase());
    if (req.query.blurry) {
      const like = `%${req.query.blurry}%`;
      qb = qb.where((eb) => eb.or([eb('subject', 'like', like), eb('tos', 'like', like)]));
    }
    const total = await countOf(qb);
    const rows = total ? await orderedPage(qb.selectAll(), paging).execute() : [];
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        subject: r.subject,
        tos: r.tos,
        recipientCount: r.recipient_count === null ? null : Number(r.recipient_count),
        status: r.status,
        messageId: r.message_id,
        error: r.error,
        kind: r.kind,
        createBy: r.create_by,
        createTime: r.create_time,
      })),
      totalElements: total,
    };
  });
}
