import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../core/db.ts';
import { escapeHtml, mailAddresses, smtpConfigured } from '../jobs/officeMail.ts';
import { notifyUsers } from '../notices/index.ts';
import { PUBLICATIONS, RECEIPTS, type PublicationRow } from './payslipDelivery.ts';

/** The employee's own payslip screen (the web route of 工资条, where 确认 and 有异议 are). */
export const OWN_PAYSLIP_PATH = '/acPayslip/index';

/**
 * Tells the people of a publication that their payslip is out: an in-app notice to each one's login (username =
 * ID card) and, when SMTP is configured, an e-mail to those with an address. Neither names an amount (PIPL: pay is
 * personal; the figures are behind the login). Records when and what went out on the publication.
 */
export async function notifyPublication(app: FastifyInstance, pub: PublicationRow, idCards?: string[]): Promise<{ notified: number; mailed: number; summary: string }> {
  const db = app.ctx.db;
  const cards =
    idCards ??
    (await db.selectFrom(RECEIPTS).select('id_card').where('publication_id', '=', pub.id).where('state', '=', 'published').execute()).map((r) => String(r.id_card));
  // the check character may have been typed in lower case as the username
  const names = [...new Set(cards.flatMap((c) => [c, c.toLowerCase()]))];
  const users = [];
  for (let i = 0; i < names.length; i += 500) {
    users.push(...(await db.selectFrom('sys_user').select(['id', 'email']).where('username', 'in', names.slice(i, i + 500)).where('enabled', '=', 1).execute()));
  }
  const title = `${pub.month} 工资条已发布`;
  const content = `${pub.company_name ?? ''} ${pub.month} 的工资条已发布，请在 ${pub.confirm_days} 天内查看并确认，如有疑问请点击“有异议”说明。`;
  await notifyUsers(
    app,
    users.map((u) => Number(u.id)),
    { kind: 'payslip_published', title, content, link: OWN_PAYSLIP_PATH },
  );
  const to = mailAddresses(users.map((u) => (u.email as string | null) ?? null));
  let mailed = 0;
  let mailNote = '';
  if (!to.length) mailNote = '无收件人邮箱';
  else if (!(await smtpConfigured(app))) mailNote = '未配置邮件服务器，未发送邮件';
  else {
    const link = pub.site_url ? `${pub.site_url.replace(/\/+$/, '')}${OWN_PAYSLIP_PATH}` : null;
    const html = `<p>${escapeHtml(content)}</p>${link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '<p>请登录系统，在“工资条”中查看。</p>'}<p>本邮件不含工资金额。</p>`;
    // one mail per person: no one sees who else is paid by the company
    for (const address of to) {
      try {
        await app.ctx.mail.send({ to: [address], subject: title, html });
        mailed++;
      } catch (err) {
        app.log.warn({ err: (err as Error).message, publication: pub.id }, 'payslip notice e-mail not sent');
      }
    }
    mailNote = `已发送邮件 ${mailed}/${to.length} 封`;
  }
  const summary = `通知 ${users.length} 人（共 ${cards.length} 人）；${mailNote}`;
  await db.updateTable(PUBLICATIONS).set({ notified_time: nowIso(), notice_summary: summary.slice(0, 500), update_time: nowIso() }).where('id', '=', pub.id).execute();
  return { notified: users.length, mailed, summary };
}
