import { codedText } from '@app/shared/errors/zodIssues';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import type { RunContext } from '../../core/scheduler/index.ts';
import { chinaToday } from '../dispatch/lookups.ts';
import { EXPIRED, markContractReminders, REMINDED } from '../dispatch/contractReminders.ts';
import { generateMessage, generateSalary } from '../payroll/salaryGeneration.ts';
import { activate, duePublications, unnotifiedPublications } from '../payroll/payslipDelivery.ts';
import { notifyPublication } from '../payroll/payslipNotices.ts';
import { isConfirmed } from '../payroll/salaryStore.ts';
import { monthSummary } from '../payroll/monthSummary.ts';
import { adminUsers, escapeHtml, mailAddresses, smtpConfigured } from './officeMail.ts';

/**
 * Jobs a payroll office schedules (finding M3): the month's salary preparation and contract-expiry notices
 * that reach a person. Registered by name like the housekeeping handlers of systemHandlers.ts.
 */
export const OFFICE_HANDLERS = {
  salaryPrep: 'salaryMonthTask.prepare',
  contractNotices: 'contractNoticeTask.send',
  payslipNotices: 'payslipNoticeTask.send',
} as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const OFFICE_HANDLER_PARAMS: Record<string, z.ZodType<Record<string, unknown>>> = {
  [OFFICE_HANDLERS.salaryPrep]: z.object({
    mode: z.enum(['generate', 'remind'], codedText('JOB_PARAM_MODE')).default('generate'),
    month: z.string(codedText('JOB_PARAM_MONTH')).regex(MONTH, codedText('JOB_PARAM_MONTH')).optional(),
    dueDay: z.coerce.number(codedText('JOB_PARAM_INT_RANGE', { name: 'dueDay', min: 1, max: 31 })).int(codedText('JOB_PARAM_INT_RANGE', { name: 'dueDay', min: 1, max: 31 })).min(1, codedText('JOB_PARAM_INT_RANGE', { name: 'dueDay', min: 1, max: 31 })).max(31, codedText('JOB_PARAM_INT_RANGE', { name: 'dueDay', min: 1, max: 31 })).optional(),
    regenerate: z.boolean(codedText('JOB_PARAM_TRUE_FALSE', { name: 'regenerate' })).default(false),
  }),
  [OFFICE_HANDLERS.contractNotices]: z.object({
    mark: z.boolean(codedText('JOB_PARAM_TRUE_FALSE', { name: 'mark' })).default(true),
  }),
  [OFFICE_HANDLERS.payslipNotices]: z.object({}),
};

/**
 * The caller a job's payroll work runs as: no user session, every company in scope (a schedule is set up by an
 * administrator on 定时任务, and the payroll functions check their month locks and data as for a clerk).
 */
function systemCaller(): FastifyRequest {
  return { user: { id: 0, username: 'system', cname: '定时任务', permissions: ['ADMIN'], roles: [], level: 1 }, deptScope: Promise.resolve(null) } as unknown as FastifyRequest;
}

/** Companies with at least one worker 在职, by name. */
async function companiesWithStaff(app: FastifyInstance): Promise<{ id: number; name: string; email: string | null }[]> {
  const rows = await app.ctx.db
    .selectFrom('accounts_company as c')
    .select(['c.id as id', 'c.company_name as name', 'c.email as email'])
    .where('c.id', 'in', (eb) => eb.selectFrom('accounts_staff as s').select('s.company_id').where('s.job_state', '=', '在职'))
    .orderBy('c.company_name')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), email: (r.email as string | null) ?? null }));
}

/** Send when SMTP is configured; otherwise say so (the run log keeps the report either way). */
async function mailIfConfigured(app: FastifyInstance, to: string[], subject: string, html: string): Promise<string> {
  if (to.length === 0) return '无收件人邮箱';
  if (!(await smtpConfigured(app))) return '未配置邮件服务器，未发送邮件';
  await app.ctx.mail.send({ to, subject, html });
  return `已发送邮件至 ${to.length} 人`;
}

type MonthState = '未生成' | '未计算' | '未确认' | '已确认';

async function salaryPrepare(app: FastifyInstance, ctx: RunContext) {
  const p = OFFICE_HANDLER_PARAMS[OFFICE_HANDLERS.salaryPrep].parse(ctx.params) as { mode: 'generate' | 'remind'; month?: string; dueDay?: number; regenerate: boolean };
  const today = chinaToday();
  const month = p.month ?? today.slice(0, 7);
  const companies = await companiesWithStaff(app);
  if (p.mode === 'remind') {
    if (p.dueDay && !p.month && Number(today.slice(8, 10)) < p.dueDay) return { summary: `${month}：未到每月${p.dueDay}日，不检查` };
    const behind: { name: string; state: MonthState }[] = [];
    for (const c of companies) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const s = await monthSummary(app.ctx.db, c.id, month);
      const state: MonthState = s.confirmed ? '已确认' : s.rows === 0 ? '未生成' : s.calculated < s.rows ? '未计算' : '未确认';
      if (state !== '已确认') behind.push({ name: c.name, state });
    }
    if (behind.length === 0) return { summary: `${month}：${companies.length} 家单位的工资均已确认`, calcCount: companies.length };
    const lines = behind.map((b) => `${b.name}（${b.state}）`);
    const admins = await adminUsers(app);
    const html = `<p>${escapeHtml(month)} 工资尚未完成的单位（截至 ${escapeHtml(today)}）：</p><ul>${behind.map((b) => `<li>${escapeHtml(b.name)}：${b.state}</li>`).join('')}</ul>`;
    const sent = await mailIfConfigured(app, mailAddresses(admins.map((a) => a.email)), `${month} 工资未完成提醒：${behind.length} 家单位`, html);
    return { summary: `${month}：${behind.length}/${companies.length} 家单位未完成：${lines.join('，')}；${sent}`, calcCount: companies.length, outputCount: behind.length };
  }

  const generated: string[] = [];
  const skipped: string[] = [];
  const failed: string[] = [];
  let rows = 0;
  const caller = systemCaller();
  for (const [i, c] of companies.entries()) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    await ctx.progress(`生成 ${c.name}`, i / Math.max(1, companies.length));
    const before = await monthSummary(app.ctx.db, c.id, month);
    if (before.confirmed) {
      skipped.push(`${c.name}（已确认）`);
      continue;
    }
    if (before.rows > 0 && !p.regenerate) {
      skipped.push(`${c.name}（已生成）`);
      continue;
    }
    try {
      // the payroll module's own 生成 (month lock, merge rules, checks): the job only walks the companies
      const outcome = await generateSalary(app, caller, c.id, month);
      rows += outcome.total;
      generated.push(`${c.name}：${generateMessage(outcome)}`);
    } catch (err) {
      failed.push(`${c.name}：${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const parts = [`${month}：生成 ${generated.length} 家（${rows} 条）`];
  if (skipped.length) parts.push(`跳过 ${skipped.length} 家：${skipped.join('，')}`);
  if (failed.length) parts.push(`失败 ${failed.length} 家：${failed.join('；')}`);
  const summary = parts.join('；');
  // a company left without its month is something to put right: the run fails, so the alert reaches the admins
  if (failed.length) throw new AppError('JOB_SALARY_PREP_FAILED', { summary: summary.slice(0, 1500) });
  return { summary, outputCount: rows, calcCount: companies.length };
}

interface ExpiringContract {
  companyId: number;
  companyName: string;
  staffName: string;
  contractEnd: string;
  state: string;
}

async function contractNotices(app: FastifyInstance, ctx: RunContext) {
  const p = OFFICE_HANDLER_PARAMS[OFFICE_HANDLERS.contractNotices].parse(ctx.params) as { mark: boolean };
  const today = chinaToday();
  // the flags first (the 合同到期提醒 marking), then the people behind them are told
  const counts = p.mark ? await markContractReminders(app.ctx.db, today) : { reminded: 0, expired: 0 };
  const rows = await app.ctx.db
    .selectFrom('accounts_staff as s')
    .innerJoin('accounts_company as c', 'c.id', 's.company_id')
    .select(['c.id as companyId', 'c.company_name as companyName', 'c.email as companyEmail', 's.staff_name as staffName', 's.contract_end as contractEnd', 's.contract_state as contractState'])
    .where('s.job_state', '=', '在职')
    .where((eb) => eb.or([eb('s.contract_warn_state', '=', REMINDED), eb('s.contract_state', '=', EXPIRED)]))
    .orderBy('c.company_name')
    .orderBy('s.contract_end')
    .execute();
  if (rows.length === 0) return { summary: `${today}：没有待处理的到期合同（新提醒 ${counts.reminded} 人，新到期 ${counts.expired} 人）` };
  const byCompany = new Map<number, { name: string; email: string | null; items: ExpiringContract[] }>();
  for (const r of rows) {
    const id = Number(r.companyId);
    const entry = byCompany.get(id) ?? { name: String(r.companyName), email: (r.companyEmail as string | null) ?? null, items: [] };
    entry.items.push({ companyId: id, companyName: entry.name, staffName: String(r.staffName ?? ''), contractEnd: String(r.contractEnd ?? '').slice(0, 10), state: r.contractState === EXPIRED ? '已到期' : '即将到期' });
    byCompany.set(id, entry);
  }
  const table = (items: ExpiringContract[]) =>
    `<table border="1" cellpadding="4" cellspacing="0"><tr><th>单位</th><th>姓名</th><th>合同结束</th><th>状态</th></tr>${items
      .map((i) => `<tr><td>${escapeHtml(i.companyName)}</td><td>${escapeHtml(i.staffName)}</td><td>${escapeHtml(i.contractEnd)}</td><td>${i.state}</td></tr>`)
      .join('')}</table>`;
  const canMail = await smtpConfigured(app);
  const outcomes: string[] = [];
  let mailed = 0;
  if (canMail) {
    // each company's clerk gets that company's list
    for (const c of byCompany.values()) {
      const to = mailAddresses([c.email]);
      if (!to.length) {
        outcomes.push(`${c.name} 未填写邮箱`);
        continue;
      }
      try {
        await app.ctx.mail.send({ to, subject: `劳动合同到期提醒：${c.name} ${c.items.length} 人`, html: `<p>以下员工的劳动合同即将到期或已到期，请及时续签或办理：</p>${table(c.items)}` });
        mailed++;
      } catch (err) {
        outcomes.push(`${c.name} 发送失败：${(err as Error).message}`);
      }
    }
    // the admins get the whole list
    const admins = mailAddresses((await adminUsers(app)).map((a) => a.email));
    if (admins.length) {
      await app.ctx.mail.send({ to: admins, subject: `劳动合同到期提醒：${byCompany.size} 家单位 ${rows.length} 人`, html: `<p>截至 ${escapeHtml(today)} 劳动合同即将到期或已到期的员工：</p>${table([...byCompany.values()].flatMap((c) => c.items))}` });
    }
    outcomes.unshift(`已发送单位邮件 ${mailed} 封，管理员 ${admins.length} 人`);
  } else outcomes.unshift('未配置邮件服务器，未发送邮件');
  return { summary: `${today}：${byCompany.size} 家单位 ${rows.length} 人合同即将到期或已到期（新提醒 ${counts.reminded} 人，新到期 ${counts.expired} 人）；${outcomes.join('；')}`, outputCount: mailed, calcCount: rows.length };
}

/**
 * Payslip e-mails for published months (issue 24 item 1): scheduled publications whose time has come are published
 * (receipts written from the payslips then on record), and every published month whose notices have not gone out
 * is announced (in-app notice and an e-mail without amounts). A scheduled month that is no longer confirmed (a
 * 反确认 since) is recalled and named in the run log.
 */
async function payslipNotices(app: FastifyInstance, ctx: RunContext) {
  const parts: string[] = [];
  let published = 0;
  let notified = 0;
  for (const pub of await duePublications(app.ctx.db)) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const name = `${pub.company_name ?? pub.company_id} ${pub.month}`;
    if (!(await isConfirmed(app.ctx.db, Number(pub.company_id), pub.month))) {
      await app.ctx.db.updateTable('accounts_payslip_publication').set({ state: 'recalled', recalled_time: new Date().toISOString(), notice_summary: '工资已反确认，定时发布取消' }).where('id', '=', pub.id).execute();
      parts.push(`${name}：工资未确认，定时发布已取消`);
      continue;
    }
    await app.ctx.db.transaction().execute((trx) => activate(trx, pub, { refuseUnchanged: false }));
    published++;
  }
  for (const pub of await unnotifiedPublications(app.ctx.db)) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const r = await notifyPublication(app, pub);
    notified += r.notified;
    parts.push(`${pub.company_name ?? pub.company_id} ${pub.month} 第${pub.version}版：${r.summary}`);
  }
  const summary = [`发布定时工资条 ${published} 个单位月份，通知 ${notified} 人`, ...parts].join('；');
  return { summary: summary.slice(0, 1900), outputCount: notified, calcCount: published };
}

export function registerOfficeHandlers(app: FastifyInstance): void {
  app.scheduler.registerHandler({
    name: OFFICE_HANDLERS.payslipNotices,
    title: '工资条发布通知：到时发布定时的工资条，并通知已发布月份的员工（站内通知与不含金额的邮件）',
    timeoutMs: 30 * 60_000,
    run: (ctx) => payslipNotices(app, ctx),
  });
  app.scheduler.registerHandler({
    name: OFFICE_HANDLERS.salaryPrep,
    title: '工资月准备：为有在职员工的单位生成本月工资（mode=remind：列出未生成/未计算/未确认的单位并邮件通知管理员）',
    timeoutMs: 60 * 60_000,
    run: (ctx) => salaryPrepare(app, ctx),
  });
  app.scheduler.registerHandler({
    name: OFFICE_HANDLERS.contractNotices,
    title: '合同到期通知：标记并邮件通知单位联系人与管理员',
    timeoutMs: 30 * 60_000,
    run: (ctx) => contractNotices(app, ctx),
  });
}
