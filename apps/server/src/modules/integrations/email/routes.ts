import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { parsePaging } from '../../../crud/listQuery.ts';
import { countOf, orderedPage, pagingQueryFields } from '../../../crud/pagedQuery.ts';
import { queryText } from '../../../crud/routeSchemas.ts';
import { isBlankHtml, prepareMailBody } from './content.ts';
import { SmtpMailSender } from './mailer.ts';
import { checkSettings, type EmailDb, isEmailAddress, readSettingsView, saveSettings, settingsFromForm, smtpSettingsBody } from './settings.ts';

/** Spec §7 E-mail: GET, PUT, POST /api/email; plus the connection test and the mail log. */

/** Recipients of one message (the tool is for notices to a handful of people, not for mass mailing). */
export const MAX_RECIPIENTS = 50;
/** Messages one user may send from the tool per minute. */
export const SENDS_PER_MINUTE = 30;

const tags = ['邮件工具'];
const READ = ['EMAIL_ALL', 'EMAIL_SELECT'];
// whoever may change the settings may also see them (password masked)
const READ_SETTINGS = ['EMAIL_ALL', 'EMAIL_SELECT', 'EMAIL_EDIT'];
const EDIT = ['EMAIL_ALL', 'EMAIL_EDIT'];
const SEND = ['EMAIL_ALL', 'EMAIL_SEND'];

const settingsView = z.object({
  id: z.number(),
  fromUser: z.string(),
  user: z.string(),
  pass: z.string().meta({ description: '已保存时为 ******，从不返回密码' }),
  host: z.string(),
  port: z.number().nullable(),
  sslEnable: z.boolean(),
  updateTime: z.string().nullable(),
});

const sendBody = z.looseObject({
  subject: z.string({ error: '标题不能为空' }).max(200, '标题长度不能超过200个字符').optional(),
  tos: z.array(z.unknown(), { error: '请至少保留一位联系人' }).max(MAX_RECIPIENTS, `收件人最多${MAX_RECIPIENTS}个`).optional(),
  content: z.string({ error: '邮件内容不能为空' }).max(10 * 1024 * 1024).optional(),
  separately: z.boolean().optional().meta({ description: '逐个发送：每位收件人单独一封，看不到其他收件人' }),
});

const sendResult = z.object({
  messageId: z.string().nullable(),
  sent: z.number().meta({ description: '送达服务器的收件人数' }),
  failed: z.array(z.object({ to: z.string(), reason: z.string() })).meta({ description: '逐个发送时被服务器拒收的收件人' }),
});

const logQuery = z.looseObject({
  ...pagingQueryFields,
  status: queryText('状态只能是 SENT 或 FAILED', 10),
  blurry: queryText('搜索内容长度不能超过100个字符', 100),
});

const logRow = z.object({
  id: z.number(),
  subject: z.string().nullable(),
  tos: z.string().nullable(),
  recipientCount: z.number().nullable(),
  status: z.string(),
  messageId: z.string().nullable(),
  error: z.string().nullable(),
  kind: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});

/** The recipient list checked by the spec's rules: each non-empty and well formed, at least one; duplicates dropped. */
function checkRecipients(raw: unknown[] | undefined): string[] {
  if (!raw || raw.length === 0) throw new AppError('EMAIL_TOS_EMPTY', {}, { tos: '请至少保留一位联系人' });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of raw) {
    const value = typeof item === 'string' ? item.trim() : typeof item === 'object' && item !== null && 'value' in item ? String((item as { value: unknown }).value ?? '').trim() : '';
    if (!value) throw new AppError('EMAIL_TO_REQUIRED', {}, { tos: '收件邮箱不能为空' });
    if (!isEmailAddress(value)) throw new AppError('EMAIL_TO_FORMAT', {}, { tos: '收件邮箱格式错误' });
    const key = value.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(value);
    }
  }
  return out;
}

export function registerEmailRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db: EmailDb = app.ctx.db;
  const { secrets, cache } = app.ctx;
  // app.ctx.mail is the SMTP sender (app.ts); a test app given another sender still tests and sends through SMTP
  const mailer = app.ctx.mail instanceof SmtpMailSender ? app.ctx.mail : new SmtpMailSender(app.ctx.db, secrets, { hostAllowlist: app.ctx.config.smtpHostAllowlist });

  app.get('/api/email', { config: { auth: READ_SETTINGS }, schema: { tags, summary: '邮件服务器配置（密码不返回）', response: { 200: settingsView } } }, () => readSettingsView(db));

  app.put(
    '/api/email',
    { config: { auth: EDIT, log: '修改邮件配置' }, schema: { tags, summary: '保存邮件服务器配置（密码加密保存；空或 ****** 保留原密码）', body: smtpSettingsBody } },
    async (req, reply) => {
      // a host the server may not connect to is refused now, not at the first message (findings N5)
      await mailer.checkHost(checkSettings(req.body).host);
      await saveSettings(db, secrets, req.body, req.user!.username);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/email/test',
    {
      config: { auth: EDIT, log: '测试邮件服务器连接' },
      schema: { tags, summary: '测试连接：用表单中的设置连接并登录SMTP服务器（密码为空或 ****** 时用已保存的密码）', body: smtpSettingsBody, response: { 200: z.object({ message: z.string() }) } },
    },
    async (req) => {
      const settings = await settingsFromForm(db, secrets, req.body);
      await mailer.verify(settings);
      return { message: '连接成功' };
    },
  );

  app.post(
    '/api/email',
    {
      config: { auth: SEND, log: '发送邮件' },
      schema: { tags, summary: '发送邮件（HTML 经服务端清洗；内嵌图片作为 cid 附件）', body: sendBody, response: { 200: sendResult } },
    },
    async (req) => {
      const subject = (req.body.subject ?? '').replace(/[\r\n]+/g, ' ').trim();
      if (!subject) throw new AppError('EMAIL_SUBJECT_REQUIRED', {}, { subject: '标题不能为空' });
      const to = checkRecipients(req.body.tos);
      const content = req.body.content ?? '';
      if (isBlankHtml(content)) throw new AppError('EMAIL_CONTENT_REQUIRED', {}, { content: '邮件内容不能为空' });
      const body = await prepareMailBody(content);
      if (!(await mailer.configured())) throw new AppError('EMAIL_NOT_CONFIGURED', {});
      if ((await cache.incr(`email-send:${req.user!.id}`, 60)) > SENDS_PER_MINUTE) throw new AppError('EMAIL_SEND_RATE', { max: SENDS_PER_MINUTE });
      const mail = { to, subject, html: body.html, attachments: body.images, kind: 'tool' as const, sentBy: req.user!.username };
      if (req.body.separately) return { messageId: null, ...(await mailer.sendSeparately(mail)) };
      const { messageId, rejected } = await mailer.sendMail(mail);
      return { messageId: messageId ?? null, sent: to.length - rejected.length, failed: rejected.map((r) => ({ to: r, reason: '收件地址被邮件服务器拒收' })) };
    },
  );

  const sortable = new Map([
    ['id', 'id'],
    ['createTime', 'create_time'],
    ['status', 'status'],
  ]);
  app.get(
    '/api/email/logs',
    { config: { auth: READ }, schema: { tags, summary: '发送记录（分页）', querystring: logQuery, response: { 200: z.object({ content: z.array(logRow), totalElements: z.number() }) } } },
    async (req) => {
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
    },
  );
}
