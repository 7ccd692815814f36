import { z } from 'zod';
import { defineContract } from './contract.ts';
import { pagingQueryFields, queryText, safeText } from './schemas.ts';
import { codedText } from '../errors/zodIssues.ts';

/**
 * 系统工具 › 邮件工具 (spec §7 E-mail): the SMTP settings (password write-only: a read shows the mask), the connection
 * test, sending, and the mail log. Server: apps/server/src/modules/integrations/email; screen:
 * apps/web/src/modules/integrations/EmailToolPage.tsx.
 */
const tags = ['邮件工具'] as const;

export const EMAIL_CODES = {
  logRead: ['EMAIL_ALL', 'EMAIL_SELECT'],
  // whoever may change the settings may also see them (password masked)
  settingsRead: ['EMAIL_ALL', 'EMAIL_SELECT', 'EMAIL_EDIT'],
  edit: ['EMAIL_ALL', 'EMAIL_EDIT'],
  send: ['EMAIL_ALL', 'EMAIL_SEND'],
} as const;

/** Recipients of one message (the tool is for notices to a handful of people, not for mass mailing). */
export const MAX_RECIPIENTS = 50;

export const smtpSettingsView = z.object({
  id: z.number(),
  fromUser: z.string(),
  user: z.string(),
  pass: z.string().meta({ description: '已保存时为 ******，从不返回密码' }),
  host: z.string(),
  port: z.number().nullable(),
  sslEnable: z.boolean(),
  updateTime: z.string().nullable(),
});
export type SmtpSettingsView = z.infer<typeof smtpSettingsView>;

/** PUT /api/email and POST /api/email/test: the form as it is (the password may be the mask or empty). */
export const smtpSettingsBody = z.looseObject({
  id: z.unknown().optional(),
  fromUser: safeText('发件人邮箱', 100).optional(),
  user: safeText('发件用户名', 100).optional(),
  pass: safeText('密码', 200).optional(),
  host: safeText('SMTP地址', 253).optional(),
  port: z.union([z.number(), z.string().max(10)], codedText('EMAIL_PORT_RANGE')).optional(),
  sslEnable: z.union([z.boolean(), z.string().max(5), z.number()]).optional(),
});
export type SmtpSettingsInput = z.infer<typeof smtpSettingsBody>;

const sendBody = z.looseObject({
  subject: z.string(codedText('EMAIL_SUBJECT_REQUIRED')).max(200, codedText('FIELD_TOO_LONG', { label: '标题', max: 200 })).optional(),
  tos: z.array(z.unknown(), codedText('EMAIL_TOS_EMPTY')).max(MAX_RECIPIENTS, codedText('EMAIL_TOS_TOO_MANY', { max: MAX_RECIPIENTS })).optional(),
  content: z.string(codedText('EMAIL_CONTENT_REQUIRED')).max(10 * 1024 * 1024).optional(),
  separately: z.boolean().optional().meta({ description: '逐个发送：每位收件人单独一封，看不到其他收件人' }),
});

const sendResult = z.object({
  messageId: z.string().nullable(),
  sent: z.number().meta({ description: '送达服务器的收件人数' }),
  failed: z.array(z.object({ to: z.string(), reason: z.string() })).meta({ description: '逐个发送时被服务器拒收的收件人' }),
});

export const mailLogRow = z.object({
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
export type MailLogRow = z.infer<typeof mailLogRow>;

export const emailSettings = defineContract({
  method: 'GET',
  path: '/api/email',
  auth: EMAIL_CODES.settingsRead,
  summary: '邮件服务器配置（密码不返回）',
  tags,
  response: smtpSettingsView,
});

/** Answers 204 (no body). */
export const saveEmailSettings = defineContract({
  method: 'PUT',
  path: '/api/email',
  auth: EMAIL_CODES.edit,
  summary: '保存邮件服务器配置（密码加密保存；空或 ****** 保留原密码）',
  log: '修改邮件配置',
  tags,
  body: smtpSettingsBody,
});

export const testEmailSettings = defineContract({
  method: 'POST',
  path: '/api/email/test',
  auth: EMAIL_CODES.edit,
  summary: '测试连接：用表单中的设置连接并登录SMTP服务器（密码为空或 ****** 时用已保存的密码）',
  log: '测试邮件服务器连接',
  tags,
  body: smtpSettingsBody,
  response: z.object({ message: z.string() }),
});

export const sendEmail = defineContract({
  method: 'POST',
  path: '/api/email',
  auth: EMAIL_CODES.send,
  summary: '发送邮件（HTML 经服务端清洗；内嵌图片作为 cid 附件）',
  log: '发送邮件',
  tags,
  body: sendBody,
  response: sendResult,
});

export const listEmailLogs = defineContract({
  method: 'GET',
  path: '/api/email/logs',
  auth: EMAIL_CODES.logRead,
  summary: '发送记录（分页）',
  tags,
  query: z.looseObject({
    ...pagingQueryFields,
    status: queryText({ code: 'EMAIL_STATUS_FILTER' }, 10),
    blurry: queryText({ code: 'FIELD_TOO_LONG', params: { label: '搜索内容', max: 100 } }, 100),
  }),
  response: z.object({ content: z.array(mailLogRow), totalElements: z.number() }),
});
