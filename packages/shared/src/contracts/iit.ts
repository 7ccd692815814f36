import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { monthText, pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * 个税申报 (issue 23 items 4-6), per withholding agent (派遣单位, a `dispatch_company` dictionary label) across all
 * its client companies: the three ITS import workbooks from confirmed months, ITS's calculated result reconciled
 * with ours (each difference acknowledged with a reason), and 增减员 against ITS's person list.
 */
const tags = ['个税申报'] as const;

const id = positiveId();
const month = monthText();
const year = z.string(codedText('IIT_YEAR_FORMAT')).regex(/^(19|20)\d{2}$/, codedText('IIT_YEAR_FORMAT'));
const agent = z.string(codedText('IIT_AGENT_REQUIRED')).trim().min(1, codedText('IIT_AGENT_REQUIRED')).max(100, codedText('IIT_AGENT_REQUIRED'));
const page = pageNumber();
const size = pageSize(100);
const agentMonth = z.object({ dispatchCompany: agent, month });

export const IIT_DIFF_KINDS = ['differs', 'ours', 'its'] as const;
export type IitDiffKind = (typeof IIT_DIFF_KINDS)[number];

export const iitReconcile = z.object({
  id: z.number(),
  dispatchCompany: z.string(),
  month: z.string(),
  fileName: z.string().nullable(),
  /** persons with a confirmed wage row of ours / rows of the ITS file */
  oursCount: z.number(),
  itsCount: z.number(),
  diffCount: z.number(),
  /** differences not acknowledged yet: a payout export of the month needs an override while > 0 */
  openCount: z.number(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type IitReconcile = z.output<typeof iitReconcile>;

export const iitDiff = z.object({
  id: z.number(),
  kind: z.enum(IIT_DIFF_KINDS),
  idCard: z.string(),
  staffName: z.string().nullable(),
  /** 累计应补(退)税额 in yuan: ours (the month's withheld tax), ITS's, ITS − ours; null on the side that lacks the person */
  ours: z.number().nullable(),
  its: z.number().nullable(),
  difference: z.number().nullable(),
  ackReason: z.string().nullable(),
  ackBy: z.string().nullable(),
  ackTime: z.string().nullable(),
});
export type IitDiff = z.output<typeof iitDiff>;

export const exportIitWage = defineContract({
  method: 'GET',
  path: '/api/export/iit/wage',
  auth: ['IIT_ALL', 'IIT_EXPORT'],
  summary: '导出正常工资薪金所得申报表（扣缴义务人全部用工单位的已确认工资，ITS 24列）',
  tags,
  log: '导出个税工资薪金申报表',
  query: agentMonth,
});

export const exportIitBonus = defineContract({
  method: 'GET',
  path: '/api/export/iit/bonus',
  auth: ['IIT_ALL', 'IIT_EXPORT'],
  summary: '导出全年一次性奖金申报表（单独计税的奖金，ITS 11列）',
  tags,
  log: '导出个税全年一次性奖金申报表',
  query: z.object({ dispatchCompany: agent, year }),
});

export const exportIitPersons = defineContract({
  method: 'GET',
  path: '/api/export/iit/persons',
  auth: ['IIT_ALL', 'IIT_EXPORT'],
  summary: '导出人员信息采集表（当月领薪人员，及上月离职人员报非正常；ITS 51列）',
  tags,
  log: '导出个税人员信息采集表',
  query: agentMonth,
});

export const importIitResult = defineContract({
  method: 'POST',
  path: '/api/import/iitResult',
  auth: ['IIT_ALL', 'IIT_IMPORT'],
  summary: '导入税局算税结果并与本系统核对累计应补(退)税额（multipart 字段 file；按表头文字找列）',
  tags,
  log: '导入个税算税结果核对',
  query: agentMonth,
  response: iitReconcile,
});

export const getIitReconcile = defineContract({
  method: 'GET',
  path: '/api/iit/reconcile',
  auth: ['IIT_ALL', 'IIT_SELECT'],
  summary: '扣缴义务人某月最近一次个税核对结果（未导入时为空）',
  tags,
  query: agentMonth,
  response: z.object({ reconcile: iitReconcile.nullable() }),
});

export const listIitDiffs = defineContract({
  method: 'GET',
  path: '/api/iit/reconcile/:id/diffs',
  auth: ['IIT_ALL', 'IIT_SELECT'],
  summary: '个税核对差异（分页；open=true 只看未确认的）',
  tags,
  params: z.object({ id }),
  query: z.object({ open: z.enum(['true', 'false'], codedText('IIT_OPEN_FLAG')).optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(iitDiff), totalElements: z.number() }),
});

export const acknowledgeIitDiff = defineContract({
  method: 'PUT',
  path: '/api/iit/diff/:id/ack',
  auth: ['IIT_ALL', 'IIT_EDIT'],
  summary: '确认一条个税核对差异并注明原因',
  tags,
  log: '确认个税核对差异',
  params: z.object({ id }),
  body: z.object({ reason: z.string(codedText('IIT_ACK_REASON')).trim().min(1, codedText('IIT_ACK_REASON')).max(200, codedText('IIT_ACK_REASON')) }),
  response: z.object({ diff: iitDiff, reconcile: iitReconcile }),
});

export const iitChanges = z.object({
  /** the ITS person list in use: when it was imported and how many persons it has (null: none imported) */
  imported: z.object({ count: z.number(), time: z.string().nullable() }).nullable(),
  /** 增员: our payees and active staff ITS does not know */
  addCount: z.number(),
  /** 离职待报: ITS persons without 离职日期 who have left and are not paid this month */
  leaveCount: z.number(),
});

export const importIitPersons = defineContract({
  method: 'POST',
  path: '/api/import/iitPersons',
  auth: ['IIT_ALL', 'IIT_IMPORT'],
  summary: '导入税局人员名单（增减员核对；multipart 字段 file；替换该扣缴义务人该月上次导入的名单）',
  tags,
  log: '导入税局人员名单',
  query: agentMonth,
  response: iitChanges,
});

export const getIitChanges = defineContract({
  method: 'GET',
  path: '/api/iit/changes',
  auth: ['IIT_ALL', 'IIT_SELECT'],
  summary: '增减员核对的人数（按最近导入的税局人员名单）',
  tags,
  query: agentMonth,
  response: iitChanges,
});

export const exportIitChanges = defineContract({
  method: 'GET',
  path: '/api/export/iit/changes',
  auth: ['IIT_ALL', 'IIT_EXPORT'],
  summary: '导出增减员表（增员与离职待报，人员信息采集51列加核对列）',
  tags,
  log: '导出个税增减员表',
  query: agentMonth,
});
