import { z } from 'zod';
import { defineContract } from './contract.ts';

/**
 * 个人中心 (spec §7): what every signed-in user does for their own account — change the password (RSA-encrypted
 * like the login form), change the e-mail address with a code sent to the new one, upload an avatar. Server:
 * apps/server/src/modules/system/selfService.ts, avatars.ts; screens: apps/web/src/modules/user (PasswordDialog,
 * EmailDialog, CenterPage).
 */
const tags = ['个人中心'] as const;

/** A password sent RSA-OAEP-256 encrypted; missing or plain ones are refused by the handler, with its message. */
const encrypted = z.string().max(4096).optional().meta({ description: 'RSA-OAEP-256 加密（Base64）' });
/** An address checked by the handler (the field rule of 邮箱), so that the messages are the screen's own. */
const emailValue = z.unknown().optional().meta({ type: 'string', format: 'email' });
const done = z.object({});

/** Every token of the user dies with the change (this session's too); reachable while a change is required. */
export const changeOwnPassword = defineContract({
  method: 'POST',
  path: '/api/users/updatePass',
  auth: 'user',
  summary: '修改密码',
  tags,
  log: '修改密码',
  beforePasswordChange: true,
  body: z.looseObject({ oldPass: encrypted, newPass: encrypted }).optional(),
  response: done,
});

/** A six-digit code to the new address, valid 5 minutes; `type` is always 'email'. */
export const sendEmailCode = defineContract({
  method: 'POST',
  path: '/api/code/resetEmail',
  auth: 'user',
  summary: '向新邮箱发送验证码',
  tags,
  log: '发送邮箱验证码',
  body: z.looseObject({ type: z.string().max(20).optional(), value: emailValue }).optional(),
  response: done,
});

/** The code in the path, the new address and the current password (`password`, or `pass` as eladmin sent it). */
export const changeOwnEmail = defineContract({
  method: 'POST',
  path: '/api/users/updateEmail/:code',
  auth: 'user',
  summary: '修改邮箱',
  tags,
  log: '修改邮箱',
  params: z.object({ code: z.string().max(20) }),
  body: z.looseObject({ email: emailValue, password: encrypted, pass: encrypted }).optional(),
  response: done,
});

/** multipart with the field `file` (PNG, JPG, GIF or WebP by content, at most 5 MB); answers the stored name. */
export const uploadOwnAvatar = defineContract({
  method: 'POST',
  path: '/api/users/updateAvatar',
  auth: 'user',
  summary: '上传头像（multipart 字段 file）',
  tags,
  log: '修改头像',
  response: z.object({ avatar: z.string() }),
});
