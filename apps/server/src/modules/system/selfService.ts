import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { changeOwnEmail, changeOwnPassword, sendEmailCode } from '@app/shared/contracts/userCentre';
import { decryptLoginPassword } from '../../core/auth/keys.ts';
import { hashPassword, verifyPassword } from '../../core/auth/password.ts';
import { isUniqueViolation, nowIso } from '../../core/db.ts';
import type { CodedMessage } from '@app/shared/errors/catalogue';
import { AppError } from '../../core/errors.ts';
import { cacheNamespace } from '../../core/cacheNamespaces.ts';
import { validateField } from '@app/shared/resource';
import { routeContract } from '../../crud/registerContract.ts';

/**
 * What every logged-in user does for their own account: change the password (old tokens die at once),
 * change the e-mail address with a code sent to the new address.
 */

const EMAIL_CODE_TTL_SECONDS = 5 * 60;
const EMAIL_CODE_MAX_WRONG = 5;
// Wrong current-password attempts per user before a pause (guards a stolen session against guessing).
const PASSWORD_CHECK_LIMIT = 10;
const PASSWORD_CHECK_WINDOW_SECONDS = 15 * 60;

// Single-use codes, their counters and the wrong-password counter: protected from "清空缓存"; the
// password counter may be deleted by an administrator (unlocking the user early).
const EMAIL_CODES = cacheNamespace('emailcode', 'protected', '邮箱验证码');
const EMAIL_CODE_FAILURES = cacheNamespace('emailcode-fail', 'protected', '邮箱验证码错误次数');
const EMAIL_CODES_SENT_HOURLY = cacheNamespace('emailcode-hour', 'protected', '邮箱验证码每小时发送次数');
const EMAIL_CODE_WAIT = cacheNamespace('emailcode-wait', 'protected', '邮箱验证码发送间隔');
const PASSWORD_CHECK_FAILURES = cacheNamespace('pwcheck', 'protected', '个人中心密码错误次数', { adminMayDelete: true });

const emailField = { name: 'email', kind: 'email', label: '邮箱', required: '新邮箱不能为空', maxLength: 100 } as const;

export function registerSelfService(app: FastifyInstance): void {
  const { db, cache, keys, mail } = app.ctx;

  /** A password field sent RSA-encrypted like the login form; plain text is refused. */
  function decrypted(raw: unknown, missing: CodedMessage, field: string): string {
    if (typeof raw !== 'string' || raw === '') throw new AppError(missing.code, missing.params, { [field]: missing });
    const plain = decryptLoginPassword(keys, raw);
    if (plain === null) throw new AppError('PASSWORD_ENCRYPTION');
    return plain;
  }

  /** Check the caller's current password, counting failures. */
  async function checkCurrentPassword(userId: number, plain: string, wrong: 'OLD_PASSWORD_WRONG' | 'PASSWORD_WRONG'): Promise<void> {
    const failKey = PASSWORD_CHECK_FAILURES.key(userId);
    if (Number((await cache.get(failKey)) ?? 0) >= PASSWORD_CHECK_LIMIT) throw new AppError('PASSWORD_RETRY_LATER');
    const row = await db.selectFrom('sys_user').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(row.password_hash as string, plain))) {
      await cache.incr(failKey, PASSWORD_CHECK_WINDOW_SECONDS);
      throw new AppError(wrong);
    }
    await cache.del(failKey);
  }

  routeContract(app, changeOwnPassword, async (req) => {
    const body = req.body ?? {};
    const oldPass = decrypted(body.oldPass, { code: 'FIELD_ENTER', params: { label: '旧密码' } }, 'oldPass');
    const newPass = decrypted(body.newPass, { code: 'FIELD_ENTER', params: { label: '新密码' } }, 'newPass');
    if (newPass.length < 6 || newPass.length > 20) throw new AppError('PASSWORD_LENGTH', {}, { newPass: { code: 'PASSWORD_LENGTH' } });
    const user = req.user!;
    await checkCurrentPassword(user.id, oldPass, 'OLD_PASSWORD_WRONG');
    if (oldPass === newPass) throw new AppError('PASSWORD_SAME');
    const hash = await hashPassword(newPass);
    // A new token version invalidates every token issued before, this session's included.
    await db
      .updateTable('sys_user')
      .set((eb) => ({ password_hash: hash, last_password_reset_time: nowIso(), update_time: nowIso(), must_change_password: 0, token_version: eb('token_version', '+', 1) }))
      .where('id', '=', user.id)
      .execute();
    return {};
  });

  const codeKey = (userId: number, email: string) => EMAIL_CODES.key(userId, email);
  const codeFailKey = (userId: number, email: string) => EMAIL_CODE_FAILURES.key(userId, email);

  /** A well-formed new address different from the current one and not used by anyone else. */
  async function checkNewEmail(userId: number, currentEmail: string | null, raw: unknown): Promise<string> {
    const r = validateField(emailField, raw);
    if (!r.ok) {
      // the headline of a malformed address is the spec's shorter 邮箱格式错误; the field keeps the rule's message.
      // A missing address is EMAIL_NEW_REQUIRED (the field's required sentence, which no definition translates).
      const field = r.error.code === 'FIELD_REQUIRED_TEXT' ? { code: 'EMAIL_NEW_REQUIRED' as const } : r.error;
      const headline = field.code === 'EMAIL_INVALID' ? { code: 'EMAIL_FORMAT' as const } : field;
      throw new AppError(headline.code, headline.params ?? {}, { email: field });
    }
    const email = String(r.value).toLowerCase();
    if (currentEmail && email === currentEmail.toLowerCase()) throw new AppError('EMAIL_SAME');
    const taken = await db.selectFrom('sys_user').select('id').where('email', '=', email).where('id', '!=', userId).executeTakeFirst();
    if (taken) throw new AppError('EMAIL_TAKEN');
    return email;
  }

  routeContract(app, sendEmailCode, async (req) => {
    const body = req.body ?? {};
    if (body.type !== 'email') throw new AppError('EMAIL_CODE_TYPE');
    const user = req.user!;
    const email = await checkNewEmail(user.id, user.email, body.value);
    if ((await cache.incr(EMAIL_CODES_SENT_HOURLY.key(user.id), 3600)) > 10) throw new AppError('EMAIL_CODE_HOURLY');
    if (!(await cache.setIfAbsent(EMAIL_CODE_WAIT.key(user.id), '1', 60))) throw new AppError('EMAIL_CODE_TOO_SOON');
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    await cache.set(codeKey(user.id, email), code, EMAIL_CODE_TTL_SECONDS);
    await cache.del(codeFailKey(user.id, email));
    try {
      await mail.send({
        to: [email],
        subject: '邮箱验证码',
        html: `<p>您正在修改账号 ${escapeHtml(user.username)} 的邮箱，验证码为：</p><p style="font-size:24px;font-weight:bold">${code}</p><p>5分钟内有效，请勿泄露给他人。如非本人操作，请忽略本邮件。</p>`,
      });
    } catch (err) {
      // no mail server configured yet is the administrator's to-do, not a fault of the server
      if (err instanceof AppError && err.status < 500) req.log.info({ code: err.code }, 'e-mail code not sent');
      else req.log.error({ err }, 'sending the e-mail code failed');
      await cache.del(codeKey(user.id, email));
      await cache.del(EMAIL_CODE_WAIT.key(user.id));
      // no mail server configured yet: say so (系统工具 › 邮件工具), rather than blaming the settings
      if (err instanceof AppError && err.code === 'EMAIL_NOT_CONFIGURED') throw err;
      throw new AppError('MAIL_SEND_FAILED');
    }
    return {};
  });

  routeContract(app, changeOwnEmail, async (req) => {
    const body = req.body ?? {};
    const code = req.params.code;
    if (!/^\d{6}$/.test(code)) throw new AppError('EMAIL_CODE_WRONG');
    const user = req.user!;
    const password = decrypted(body.password ?? body.pass, { code: 'FIELD_REQUIRED', params: { label: '当前密码' } }, 'password');
    const email = await checkNewEmail(user.id, user.email, body.email);
    await checkCurrentPassword(user.id, password, 'PASSWORD_WRONG');

    const expected = await cache.get(codeKey(user.id, email));
    const expectedBuf = Buffer.from(expected ?? '');
    const givenBuf = Buffer.from(code);
    if (!expected || expectedBuf.length !== givenBuf.length || !crypto.timingSafeEqual(expectedBuf, givenBuf)) {
      // Six digits are guessable: after a few wrong tries the code is gone and a new one must be sent.
      if (expected && (await cache.incr(codeFailKey(user.id, email), EMAIL_CODE_TTL_SECONDS)) >= EMAIL_CODE_MAX_WRONG) {
        await cache.del(codeKey(user.id, email));
      }
      throw new AppError('EMAIL_CODE_WRONG');
    }
    // Single use: whoever takes it first wins; a concurrent second request finds nothing.
    if ((await cache.take(codeKey(user.id, email))) !== code) throw new AppError('EMAIL_CODE_WRONG');
    await cache.del(codeFailKey(user.id, email));
    try {
      await db.updateTable('sys_user').set({ email, update_time: nowIso() }).where('id', '=', user.id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN');
      throw err;
    }
    return {};
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
