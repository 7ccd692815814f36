import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { coercedInt, monthText, pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * Payslip delivery with the employee's confirmation (issue 24 item 1; month-close.md §B5): the clerk publishes a
 * confirmed month's payslips per company (now or at a set time) and recalls them; each employee views, confirms
 * or objects to their own slip; the clerk reads the counts per state and answers the objections.
 */
const tags = ['工资条发放'] as const;

/** The clerks who publish, recall and answer (ADMIN passes every check). */
const CLERK_CODES = ['ACPAYSLIP_ALL', 'ACPAYSLIP_EDIT'] as const;
/** Whoever may read payslips; the server adds the ordinary-employee rule (own slips only). */
const READ_CODES = ['ACPAYSLIP_ALL', 'ACPAYSLIP_SELECT'] as const;

/** Stored states of a receipt; 逾期未反馈 (`overdue`) is derived from the deadline and never stored. */
export const RECEIPT_STATES = ['published', 'viewed', 'confirmed', 'objected', 'answered'] as const;
export const RECEIPT_VIEW_STATES = [...RECEIPT_STATES, 'overdue'] as const;
export type ReceiptState = (typeof RECEIPT_VIEW_STATES)[number];
export const PUBLICATION_STATES = ['scheduled', 'published', 'recalled', 'superseded'] as const;

export const CONFIRM_DAYS_DEFAULT = 7;
export const CONFIRM_DAYS_MAX = 60;
export const FEEDBACK_TEXT_MAX = 500;

const idParam = z.object({ id: positiveId() });
const companyId = coercedInt({ code: 'COMPANY_ID_INVALID' }, 1, 2_147_483_647);
const month = monthText();
const page = pageNumber();
const size = pageSize(100);
const feedbackText = z
  .string(codedText('PAYSLIP_FEEDBACK_EMPTY'))
  .trim()
  .min(1, codedText('PAYSLIP_FEEDBACK_EMPTY'))
  .max(FEEDBACK_TEXT_MAX, codedText('PAYSLIP_FEEDBACK_TOO_LONG', { max: FEEDBACK_TEXT_MAX }))
  .refine((s) => !s.includes('\u0000'), codedText('PAYSLIP_FEEDBACK_TOO_LONG', { max: 500 }));

export const stateCounts = z.object({
  published: z.number(),
  viewed: z.number(),
  confirmed: z.number(),
  objected: z.number(),
  answered: z.number(),
  overdue: z.number(),
  total: z.number(),
});
export type StateCounts = z.output<typeof stateCounts>;

export const publication = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  month: z.string(),
  version: z.number(),
  state: z.enum(PUBLICATION_STATES),
  publishAt: z.string().nullable(),
  publishedTime: z.string().nullable(),
  recalledTime: z.string().nullable(),
  confirmDays: z.number(),
  publishedBy: z.string().nullable(),
  notifiedTime: z.string().nullable(),
  noticeSummary: z.string().nullable(),
  counts: stateCounts,
});
export type Publication = z.output<typeof publication>;

/** A receipt as the clerk reads it (the slip itself stays with the employee's own view). */
export const receipt = z.object({
  id: z.number(),
  publicationId: z.number(),
  companyId: z.number(),
  month: z.string(),
  version: z.number(),
  idCard: z.string(),
  staffName: z.string().nullable(),
  state: z.enum(RECEIPT_VIEW_STATES),
  slipHash: z.string(),
  deadline: z.string().nullable(),
  viewedTime: z.string().nullable(),
  viewedIp: z.string().nullable(),
  confirmedTime: z.string().nullable(),
  confirmedIp: z.string().nullable(),
  confirmedHash: z.string().nullable(),
  objection: z.string().nullable(),
  objectionTime: z.string().nullable(),
  reply: z.string().nullable(),
  replyTime: z.string().nullable(),
  replyBy: z.string().nullable(),
});
export type Receipt = z.output<typeof receipt>;

/** The employee's own receipt: also the slip as published (the payslip's fields by their API names). */
export const ownReceipt = receipt.extend({ companyName: z.string().nullable(), publishedTime: z.string().nullable(), slip: z.record(z.string(), z.unknown()) });
export type OwnReceipt = z.output<typeof ownReceipt>;

export const publishPayslips = defineContract({
  method: 'POST',
  path: '/api/acPayslip/publish',
  auth: CLERK_CODES,
  summary: '发布工资条（已确认月份；可定时发布）',
  tags,
  log: '发布工资条',
  body: z.object({
    companyId,
    month,
    /** Future time (ISO): published by the payslip-notice job after it; absent or past: now. */
    publishAt: z.iso.datetime({ offset: true, ...codedText('PAYSLIP_PUBLISH_AT_INVALID') }).optional(),
    confirmDays: coercedInt({ code: 'PAYSLIP_CONFIRM_DAYS', params: { max: CONFIRM_DAYS_MAX } }, 1, CONFIRM_DAYS_MAX).optional(),
    /** The site address the notices link to (the clerk's browser's own). */
    siteUrl: z.url({ protocol: /^https?$/, ...codedText('PAYSLIP_SITE_URL_INVALID') }).max(200, codedText('PAYSLIP_SITE_URL_INVALID')).optional(),
  }),
  response: z.object({ publication, notified: z.number(), carriedOver: z.number() }),
});

export const recallPayslips = defineContract({
  method: 'POST',
  path: '/api/acPayslip/recall',
  auth: CLERK_CODES,
  summary: '撤回工资条发布（定时或已发布）',
  tags,
  log: '撤回工资条发布',
  body: z.object({ companyId, month }),
  response: z.object({ publication }),
});

export const listDeliveries = defineContract({
  method: 'GET',
  path: '/api/acPayslip/deliveries',
  auth: READ_CODES,
  summary: '工资条发放情况（每个单位月份的最新发布与各状态人数）',
  tags,
  query: z.object({ companyId: companyId.optional(), month: month.optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(publication), totalElements: z.number() }),
});

export const deliveryDetail = defineContract({
  method: 'GET',
  path: '/api/acPayslip/delivery',
  auth: READ_CODES,
  summary: '一个单位月份的发放明细与有异议列表',
  tags,
  query: z.object({ companyId, month }),
  response: z.object({ publication: publication.nullable(), receipts: z.array(receipt), objections: z.array(receipt) }),
});

export const replyObjection = defineContract({
  method: 'POST',
  path: '/api/acPayslip/receipts/:id/reply',
  auth: CLERK_CODES,
  summary: '答复员工对工资条的异议',
  tags,
  log: '答复工资条异议',
  params: idParam,
  body: z.object({ text: feedbackText }),
  response: z.object({ receipt }),
});

export const myReceipts = defineContract({
  method: 'GET',
  path: '/api/acPayslip/receipts/mine',
  auth: READ_CODES,
  summary: '我的已发布工资条与确认状态',
  tags,
  response: z.object({ content: z.array(ownReceipt) }),
});

export const viewReceipt = defineContract({
  method: 'POST',
  path: '/api/acPayslip/receipts/:id/view',
  auth: READ_CODES,
  summary: '查看本人工资条（首次查看记录时间与IP）',
  tags,
  log: '',
  params: idParam,
  response: z.object({ receipt: ownReceipt }),
});

export const confirmReceipt = defineContract({
  method: 'POST',
  path: '/api/acPayslip/receipts/:id/confirm',
  auth: READ_CODES,
  summary: '确认本人工资条（记录时间、IP与所见版本的哈希）',
  tags,
  log: '确认工资条',
  params: idParam,
  body: z.object({ slipHash: z.string(codedText('PAYSLIP_HASH_INVALID')).regex(/^[0-9a-f]{64}$/, codedText('PAYSLIP_HASH_INVALID')) }),
  response: z.object({ receipt: ownReceipt }),
});

export const objectReceipt = defineContract({
  method: 'POST',
  path: '/api/acPayslip/receipts/:id/object',
  auth: READ_CODES,
  summary: '对本人工资条提出异议',
  tags,
  log: '工资条异议',
  params: idParam,
  body: z.object({ text: feedbackText }),
  response: z.object({ receipt: ownReceipt }),
});
