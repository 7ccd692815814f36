import { z } from 'zod';
import { SI_CHANGE_KINDS, SI_CHANGE_TARGETS } from '../socialInsurance/siChangeLayout.ts';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { monthText, pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * 增减员 (issue 24 item 3): per company and month the lists for the social-insurance bureau or the housing-fund
 * centre (增员 insured from this month, 减员 left or stopped, 基数变更), derived from the staff records and the salary
 * months, previewed page by page and downloaded in a 社保模板's layout.
 */
const tags = ['增减员'] as const;

const id = positiveId();
const month = monthText();
const kind = z.enum(SI_CHANGE_KINDS, codedText('SI_CHANGE_KIND_INVALID'));
const page = pageNumber();
const size = pageSize(100);
const target = z.enum(Object.keys(SI_CHANGE_TARGETS) as ['si', 'hf']);

export const siChangeTemplateChoice = z.object({
  id: z.number(),
  templateName: z.string(),
  region: z.string(),
  target,
  /** the lists the template has columns for */
  kinds: z.array(kind),
});
export type SiChangeTemplateChoice = z.output<typeof siChangeTemplateChoice>;

export const siChangeRow = z.object({
  staffId: z.number(),
  staffName: z.string(),
  idCard: z.string(),
  censusType: z.string().nullable(),
  phone: z.string().nullable(),
  /** 增员: the month insured from; 减员: the month it stops; 基数变更: the month the new base applies */
  startMonth: z.string(),
  /** 新参保 / 离职 / 退休 / 停保 / 调整基数 */
  reason: z.string(),
  /** yuan: the target's main base (社保: 养老保险基数, 公积金: 公积金基数) before and after; null where it does not apply */
  oldBase: z.number().nullable(),
  newBase: z.number().nullable(),
});
export type SiChangeRow = z.output<typeof siChangeRow>;

const counts = z.object({ add: z.number(), remove: z.number(), base: z.number() });

const listQuery = z.object({ companyId: id, month, templateId: id });

export const listSiChangeTemplates = defineContract({
  method: 'GET',
  path: '/api/siChanges/templates',
  auth: ['SICHANGES_ALL', 'SICHANGES_SELECT', 'SICHANGES_EXPORT'],
  summary: '可选的社保/公积金增减员模板',
  tags,
  response: z.object({ content: z.array(siChangeTemplateChoice) }),
});

export const previewSiChanges = defineContract({
  method: 'GET',
  path: '/api/siChanges',
  auth: ['SICHANGES_ALL', 'SICHANGES_SELECT'],
  summary: '增减员名单预览（单位、月份、模板；三种名单的人数与一种名单的分页明细）',
  tags,
  query: listQuery.extend({ kind: kind.optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ target, counts, content: z.array(siChangeRow), totalElements: z.number() }),
});

export const exportSiChanges = defineContract({
  method: 'GET',
  path: '/api/export/siChanges',
  auth: ['SICHANGES_ALL', 'SICHANGES_EXPORT'],
  summary: '按社保模板导出增员、减员或基数变更名单',
  tags,
  log: '导出增减员名单',
  query: listQuery.extend({ kind }),
});
