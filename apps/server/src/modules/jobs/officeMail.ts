import type { FastifyInstance } from 'fastify';
import { isEmailAddress } from '../integrations/email/settings.ts';
import { SmtpMailSender } from '../integrations/email/mailer.ts';

/** An enabled user who holds the ADMIN code (through any of their roles), with the e-mail address on record. */
export interface AdminUser {
  id: number;
  username: string;
  email: string | null;
}

/** Every enabled user holding ADMIN: the people a job's report and a failure alert go to. */
export async function adminUsers(app: FastifyInstance): Promise<AdminUser[]> {
  const rows = await app.ctx.db
    .selectFrom('sys_user as u')
    .innerJoin('sys_users_roles as ur', 'ur.user_id', 'u.id')
    .innerJoin('sys_roles_permissions as rp', 'rp.role_id', 'ur.role_id')
    .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
    .select(['u.id as id', 'u.username as username', 'u.email as email'])
    .where('p.name', '=', 'ADMIN')
    .where('u.enabled', '=', 1)
    .distinct()
    .execute();
  return rows.map((r) => ({ id: Number(r.id), username: String(r.username), email: typeof r.email === 'string' && isEmailAddress(r.email) ? r.email : null }));
}

/**
 * Whether mail can go out: a complete SMTP configuration is stored (系统工具 › 邮件工具). Jobs and alerts send
 * only then; without it they say so in the run log instead of failing (the in-app notice still reaches people).
 */
export async function smtpConfigured(app: FastifyInstance): Promise<boolean> {
  const mail = app.ctx.mail;
  return mail instanceof SmtpMailSender ? mail.configured() : false;
}

/** Distinct valid addresses, order kept. */
export function mailAddresses(candidates: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const c of candidates) {
    const a = typeof c === 'string' ? c.trim() : '';
    if (a && isEmailAddress(a) && !out.some((b) => b.toLowerCase() === a.toLowerCase())) out.push(a);
  }
  return out;
}

/** Text for an HTML mail body (names of companies and people are data, not markup). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
