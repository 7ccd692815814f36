import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { monthText, pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * 代发工资 (issue 23 items 2 and 3): payout batches from a confirmed month, the bank file in a bank template's layout
 * (exporting locks the batch), the bank's return file (回盘), card corrections and re-pay batches of failed rows only.
 */
const tags = ['代发工资'] as const;

const id = positiveId();
const month = monthText();
const page = pageNumber();
const size = pageSize(100);
/** ids whose card the clerk confirmed although it fails the Luhn check */
const acceptLuhn = z.array(id, codedText('PAYOUT_ACCEPT_LUHN_IDS')).max(20_000, codedText('PAYOUT_ACCEPT_LUHN_MAX')).optional();

export const PAYOUT_STATES = ['pending', 'exported', 'part_failed', 'done'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const payoutBatch = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  dispatchCompany: z.string().nullable(),
  month: z.string(),
  templateId: z.number(),
  templateName: z.string().nullable(),
  kind: z.enum(['pay', 'repay']),
  parentId: z.number().nullable(),
  state: z.enum(PAYOUT_STATES),
  rowCount: z.number(),
  /** yuan */
  total: z.number(),
  okCount: z.number(),
  failedCount: z.number(),
  fileName: z.string().nullable(),
  exportTime: z.string().nullable(),
  exportBy: z.string().nullable(),
  returnTime: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type PayoutBatch = z.output<typeof payoutBatch>;

export const payoutRow = z.object({
  id: z.number(),
  seq: z.number(),
  staffName: z.string(),
  idCard: z.string().nullable(),
  account: z.string(),
  accountName: z.string(),
  bankName: z.string().nullable(),
  /** yuan */
  amount: z.number(),
  luhnOverride: z.boolean(),
  result: z.enum(['', 'ok', 'failed']),
  reason: z.string().nullable(),
  /** the row that pays it again in a re-pay batch */
  repaidBy: z.number().nullable(),
});
export type PayoutRow = z.output<typeof payoutRow>;

/** Why a row (or the whole batch: `seq` 0) keeps the batch from being generated; the web words it per `code`. */
export const PAYOUT_PROBLEM_CODES = ['noCard', 'cardFormat', 'luhn', 'nameMismatch', 'amount', 'duplicate', 'notEncodable', 'tooWide', 'totalMismatch'] as const;
export const payoutProblem = z.object({
  /** salary row id (generate) or payout row id (re-pay); 0 for the whole batch */
  id: z.number(),
  seq: z.number(),
  staffName: z.string(),
  idCard: z.string().nullable(),
  account: z.string().nullable(),
  code: z.enum(PAYOUT_PROBLEM_CODES),
  /** the column (notEncodable, tooWide), the other name (nameMismatch), the two totals (totalMismatch) */
  detail: z.string().nullable(),
  /** Luhn only: the clerk may confirm the card and generate again with its id in acceptLuhn */
  overridable: z.boolean(),
});
export type PayoutProblem = z.output<typeof payoutProblem>;

const generated = z.object({ batch: payoutBatch.nullable(), problems: z.array(payoutProblem) });

export const listPayoutBatches = defineContract({
  method: 'GET',
  path: '/api/payout',
  auth: ['PAYOUT_ALL', 'PAYOUT_SELECT'],
  summary: '代发批次列表（单位、月份、状态）',
  tags,
  query: z.object({
    companyId: id.optional(),
    month: month.optional(),
    state: z.enum(PAYOUT_STATES, codedText('PAYOUT_STATE_INVALID')).optional(),
    page: page.optional(),
    size: size.optional(),
  }),
  response: z.object({ content: z.array(payoutBatch), totalElements: z.number() }),
});

export const getPayoutBatch = defineContract({
  method: 'GET',
  path: '/api/payout/:id',
  auth: ['PAYOUT_ALL', 'PAYOUT_SELECT'],
  summary: '代发批次明细（每行的账号、金额与银行回盘结果）',
  tags,
  params: z.object({ id }),
  response: z.object({
    batch: payoutBatch,
    rows: z.array(payoutRow),
    /** the batch was exported over an open IIT reconciliation (个税申报): who, when, why, how many differences were open */
    iitOverride: z.object({ reason: z.string().nullable(), username: z.string().nullable(), time: z.string().nullable(), openCount: z.number() }).nullable(),
  }),
});

export const generatePayout = defineContract({
  method: 'POST',
  path: '/api/payout/generate',
  auth: ['PAYOUT_ALL', 'PAYOUT_CREATE'],
  summary: '由已确认的月度工资生成代发批次（预检不通过时返回逐行问题，不生成）',
  tags,
  log: '生成代发批次',
  body: z.object({ companyId: id, month, templateId: id, acceptLuhn }),
  response: generated,
});

export const repayPayout = defineContract({
  method: 'POST',
  path: '/api/payout/:id/repay',
  auth: ['PAYOUT_ALL', 'PAYOUT_CREATE'],
  summary: '由回盘失败的行生成重新代发批次（已成功的行不会再付）',
  tags,
  log: '生成重新代发批次',
  params: z.object({ id }),
  body: z.object({ acceptLuhn }),
  response: generated,
});

export const exportPayout = defineContract({
  method: 'GET',
  path: '/api/export/payout/:batchId',
  auth: ['PAYOUT_ALL', 'PAYOUT_EXPORT'],
  summary: '导出银行代发文件（按模板的格式与编码；首次导出后批次锁定）',
  tags,
  log: '导出银行代发文件',
  params: z.object({ batchId: id }),
  // the month's IIT reconciliation (个税申报) still has unacknowledged differences: the first export answers 409
  // IIT_RECONCILE_OPEN unless the clerk overrides with a reason (recorded with the batch and in the operation log)
  query: z.object({
    iitOverride: z.enum(['true'], codedText('IIT_OVERRIDE_FLAG')).optional(),
    iitOverrideReason: z.string(codedText('IIT_OVERRIDE_REASON')).trim().min(1, codedText('IIT_OVERRIDE_REASON')).max(200, codedText('IIT_OVERRIDE_REASON')).optional(),
  }),
});

export const importPayoutReturn = defineContract({
  method: 'POST',
  path: '/api/import/payoutReturn/:batchId',
  auth: ['PAYOUT_ALL', 'PAYOUT_IMPORT'],
  summary: '导入银行回盘文件（multipart 字段 file；按序号、账号、金额匹配）',
  tags,
  log: '导入银行回盘',
  params: z.object({ batchId: id }),
  response: z.object({
    ok: z.number(),
    failed: z.number(),
    /** lines of the file that match no row of the batch, or contradict a row already paid */
    unmatched: z.array(z.object({ line: z.number(), seq: z.string(), account: z.string(), amount: z.number().nullable(), why: z.enum(['noRow', 'accountDiffers', 'amountDiffers', 'alreadyPaid', 'alreadyFailed', 'duplicateLine']) })),
    /** rows of the batch the file says nothing about */
    missing: z.number(),
    batch: payoutBatch,
  }),
});

export const correctPayoutRow = defineContract({
  method: 'PUT',
  path: '/api/payout/row/:id',
  auth: ['PAYOUT_ALL', 'PAYOUT_EDIT'],
  summary: '更正回盘失败行的银行卡号与户名（同时更新员工的银行卡号）',
  tags,
  log: '更正代发账号',
  params: z.object({ id }),
  body: z.object({
    account: z.string(codedText('PAYOUT_CARD_REQUIRED')).trim().min(1, codedText('PAYOUT_CARD_REQUIRED')).max(40, codedText('PAYOUT_CARD_INVALID')),
    accountName: z.string(codedText('PAYOUT_ACCOUNT_NAME_REQUIRED')).trim().min(1, codedText('PAYOUT_ACCOUNT_NAME_REQUIRED')).max(50, codedText('PAYOUT_ACCOUNT_NAME_LONG')),
    bankName: z.string().trim().max(100, codedText('PAYOUT_BANK_NAME_LONG')).optional(),
    acceptLuhn: z.boolean().optional(),
  }),
  response: payoutRow,
});

export const deletePayout = defineContract({
  method: 'DELETE',
  path: '/api/payout/:id',
  auth: ['PAYOUT_ALL', 'PAYOUT_DELETE'],
  summary: '删除未导出的代发批次',
  tags,
  log: '删除代发批次',
  params: z.object({ id }),
  response: z.object({ deleted: z.number() }),
});
