import type { FastifyInstance } from 'fastify';
import { listNotices, markNoticesRead } from '@app/shared/contracts/notices';
import { nowIso } from '../../core/db.ts';
import type { RunEndEvent } from '../../core/scheduler/index.ts';
import { countOf } from '../../crud/pagedQuery.ts';
import { routeContract } from '../../crud/registerContract.ts';
import { adminUsers, escapeHtml, mailAddresses, smtpConfigured } from '../jobs/officeMail.ts';

/**
 * In-app notices (the header's bell) and the alerts of failed runs (issue 25 item 2, finding M4). A notice is one
 * row per recipient in `sys_notice`; every user reads and marks only their own rows.
 */
export interface NoticeInput {
  kind: 'job_failed' | 'job_paused' | 'payslip_published';
  title: string;
  content: string;
  link: string | null;
}

/** One notice to each of `userIds` (distinct). */
export async function notifyUsers(app: FastifyInstance, userIds: number[], notice: NoticeInput): Promise<void> {
  const ids = [...new Set(userIds.filter((id) => Number.isInteger(id) && id > 0))];
  if (!ids.length) return;
  const now = nowIso();
  await app.ctx.db
    .insertInto('sys_notice')
    .values(ids.map((user_id) => ({ user_id, kind: notice.kind, title: notice.title.slice(0, 200), content: notice.content.slice(0, 4000), link: notice.link, is_read: 0, create_time: now, update_time: now })))
    .execute();
}

/** The schedule behind a run key: its name, owner and the screen of its run log. */
async function scheduleOf(app: FastifyInstance, key: string): Promise<{ kind: string; name: string; ownerId: number | null; link: string } | null> {
  const m = /^(job|task):(\d+)$/.exec(key);
  if (!m) return null;
  const id = Number(m[2]);
  if (m[1] === 'job') {
    const row = await app.ctx.db.selectFrom('sys_scheduled_job').select(['job_name', 'owner_id']).where('id', '=', id).executeTakeFirst();
    return row ? { kind: '定时任务', name: row.job_name, ownerId: row.owner_id === null ? null : Number(row.owner_id), link: '/tools/timing' } : null;
  }
  const row = await app.ctx.db.selectFrom('model_task').select(['job_name', 'owner_id']).where('id', '=', id).executeTakeFirst();
  return row ? { kind: '模型任务', name: row.job_name, ownerId: Number(row.owner_id), link: '/operations/tasks' } : null;
}

/**
 * A failed run (after its retries) and an auto-pause reach the schedule's owner and every admin: a notice each,
 * and one e-mail when SMTP is configured. A fire skipped because the previous run was still running is no alert.
 */
export async function alertRunEnd(app: FastifyInstance, e: RunEndEvent): Promise<void> {
  if (e.ok || e.skipped) return;
  const schedule = await scheduleOf(app, e.key);
  if (!schedule) return;
  const admins = await adminUsers(app);
  const owner = schedule.ownerId === null ? null : await app.ctx.db.selectFrom('sys_user').select(['id', 'email', 'enabled']).where('id', '=', schedule.ownerId).executeTakeFirst();
  const recipients = [...(owner && Number(owner.enabled) === 1 ? [{ id: Number(owner.id), email: (owner.email as string | null) ?? null }] : []), ...admins];
  const reason = (e.error ?? '').split('\n')[0].slice(0, 500);
  const title = e.autoPaused ? `${schedule.kind}「${schedule.name}」连续失败，已自动暂停` : `${schedule.kind}「${schedule.name}」运行失败`;
  const content = [reason, e.attempts && e.attempts > 1 ? `共尝试 ${e.attempts} 次` : null, e.autoPaused ? '请检查原因后在任务列表中恢复' : null].filter(Boolean).join('；');
  await notifyUsers(
    app,
    recipients.map((r) => r.id),
    { kind: e.autoPaused ? 'job_paused' : 'job_failed', title, content, link: schedule.link },
  );
  const to = mailAddresses(recipients.map((r) => r.email));
  if (to.length && (await smtpConfigured(app))) {
    try {
      await app.ctx.mail.send({ to, subject: title, html: `<p>${escapeHtml(title)}</p><p>${escapeHtml(content)}</p><p>详情见执行日志（${escapeHtml(schedule.kind)}：${escapeHtml(schedule.name)}）。</p>` });
    } catch (err) {
      // the notice is in the app already; a mail server that refuses is logged, not retried
      app.log.warn({ err: (err as Error).message, key: e.key }, 'alert e-mail not sent');
    }
  }
}

const noticeRow = (r: { id: number; kind: string; title: string; content: string | null; link: string | null; is_read: unknown; create_time: string | null }) => ({
  id: Number(r.id),
  kind: r.kind,
  title: r.title,
  content: r.content ?? '',
  link: r.link,
  read: Number(r.is_read) === 1,
  createTime: r.create_time,
});

export async function registerNotices(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db;
  app.scheduler.onRunEnd((e) => alertRunEnd(app, e));

  routeContract(app, listNotices, async (req) => {
    const { page = 0, size = 10, unread } = req.query;
    const userId = req.user!.id;
    let qb = db.selectFrom('sys_notice').where('user_id', '=', userId);
    if (unread === 'true') qb = qb.where('is_read', '=', 0);
    const totalElements = await countOf(qb);
    const rows = totalElements ? await qb.select(['id', 'kind', 'title', 'content', 'link', 'is_read', 'create_time']).orderBy('id', 'desc').limit(size).offset(page * size).execute() : [];
    const unreadCount = await countOf(db.selectFrom('sys_notice').where('user_id', '=', userId).where('is_read', '=', 0));
    return { content: rows.map(noticeRow), totalElements, unread: unreadCount };
  });

  routeContract(app, markNoticesRead, async (req) => {
    // only the caller's own rows: another user's id changes nothing
    let qb = db.updateTable('sys_notice').set({ is_read: 1, update_time: nowIso() }).where('user_id', '=', req.user!.id).where('is_read', '=', 0);
    if (req.body.ids?.length) qb = qb.where('id', 'in', req.body.ids);
    const res = await qb.executeTakeFirst();
    return { updated: Number(res.numUpdatedRows) };
  });
}
