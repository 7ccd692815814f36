import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedText } from '../errors/zodIssues.ts';
import { pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * Month close I (issue 22): client settlement statements (结算单), their states, receipts (回款) and the
 * receivables ledger (应收台账). Money is yuan on the wire (numbers with at most two decimals), fen in the database.
 */
const tags = ['结算单'] as const;

export const SETTLEMENT_CODES = {
  select: ['SETTLEMENT_ALL', 'SETTLEMENT_SELECT'],
  create: ['SETTLEMENT_ALL', 'SETTLEMENT_CREATE'],
  edit: ['SETTLEMENT_ALL', 'SETTLEMENT_EDIT'],
  delete: ['SETTLEMENT_ALL', 'SETTLEMENT_DELETE'],
} as const;

/** 草稿 → 已发送 → 已确认 | 有异议 → 已开票 → 部分回款 → 已结清. */
export const SETTLEMENT_STATES = ['DRAFT', 'SENT', 'CONFIRMED', 'DISPUTED', 'INVOICED', 'PARTIAL', 'SETTLED'] as const;
export type SettlementState = (typeof SETTLEMENT_STATES)[number];
export const SETTLEMENT_STATE_LABELS: Record<SettlementState, string> = {
  DRAFT: '草稿',
  SENT: '已发送',
  CONFIRMED: '已确认',
  DISPUTED: '有异议',
  INVOICED: '已开票',
  PARTIAL: '部分回款',
  SETTLED: '已结清',
};

/**
 * The changes `PUT /api/settlement/:id/state` makes (部分回款 and 已结清 follow from the receipts). A disputed
 * statement is confirmed after all or generated again (a new version); anything else is a 409.
 */
export const SETTLEMENT_TRANSITIONS: Record<SettlementState, readonly SettlementState[]> = {
  DRAFT: ['SENT'],
  SENT: ['CONFIRMED', 'DISPUTED'],
  DISPUTED: ['CONFIRMED'],
  CONFIRMED: ['INVOICED'],
  INVOICED: [],
  PARTIAL: [],
  SETTLED: [],
};

const page = pageNumber();
const size = pageSize(100);
const id = positiveId();
const month = z.string(codedText('MONTH_REQUIRED')).regex(/^\d{4}-(0[1-9]|1[0-2])$/, codedText('MONTH_FORMAT_INVALID'));
const date = z.string(codedText('DATE_FORMAT_INVALID')).regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, codedText('DATE_FORMAT_INVALID'));
const yuan = z.number(codedText('FIELD_NUMBER', { label: '金额' })).finite(codedText('FIELD_NUMBER', { label: '金额' })).min(-1e11, codedText('AMOUNT_OUT_OF_RANGE')).max(1e11, codedText('AMOUNT_OUT_OF_RANGE'));
const note = z.string().max(500, codedText('TEXT_TOO_LONG', { label: '备注', max: 500 }));

export const settlementSummary = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  dispatchCompany: z.string().nullable(),
  month: z.string(),
  version: z.number(),
  state: z.enum(SETTLEMENT_STATES),
  needsReopen: z.boolean(),
  superseded: z.boolean(),
  heads: z.number(),
  currentDue: z.number(),
  arrearsIn: z.number(),
  totalDue: z.number(),
  received: z.number(),
  outstanding: z.number(),
  vatRegime: z.string().nullable(),
  disputeReason: z.string().nullable(),
  invoiceNo: z.string().nullable(),
  invoiceDate: z.string().nullable(),
  invoiceAmount: z.number().nullable(),
  generatedBy: z.string().nullable(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type SettlementSummary = z.output<typeof settlementSummary>;

const money = z.number();
export const settlementLineSchema = z.object({
  seq: z.number(),
  staffName: z.string().nullable(),
  idCardMasked: z.string().nullable(),
  gross: money,
  personalSi: money,
  personalHf: money,
  tax: money,
  net: money,
  employerYanglao: money,
  employerYiliao: money,
  employerShiye: money,
  employerGongshang: money,
  employerGongjijin: money,
  /** 补缴社保(单位): employer 补差 of earlier months (调基, 社保平账); statements made before it read 0 */
  employerBackPay: money.default(0),
  items: z.array(money),
  disabledShare: money,
  unionFee: money,
  fee: money,
  total: money,
});
export type SettlementLineView = z.output<typeof settlementLineSchema>;

export const settlementDetail = settlementSummary.extend({
  header: z.object({
    heads: z.number(),
    lines: z.number(),
    sums: settlementLineSchema.omit({ seq: true, staffName: true, idCardMasked: true, items: true }),
    itemNames: z.array(z.string()),
    itemSums: z.array(money),
    passThrough: money,
    subtotal: money,
    vatBase: money,
    vat: money,
    surtax: money,
    taxCharged: money,
    currentDue: money,
    arrearsIn: money,
    totalDue: money,
  }),
  /** The terms and VAT regime the statement used (as they were when it was generated). */
  terms: z.object({
    validFrom: z.string(),
    feeMode: z.string(),
    feeAmount: money,
    feeRate: z.string(),
    feeTaxMode: z.string(),
    siBillingLag: z.number(),
    disabledShareMode: z.string(),
    disabledShareAmount: money,
    disabledShareRate: z.string(),
    unionFeeRatio: z.string(),
    perHeadItems: z.string(),
    vatRegime: z.string(),
    vatRate: z.string(),
    surtaxRatio: z.string(),
    vatValidFrom: z.string(),
    siMonth: z.string(),
  }),
  /** One page of the lines (`page`, `size`, `keyword` of the query), never all 10,000 at once. */
  lines: z.array(settlementLineSchema),
  /** How many lines match the keyword (all of them without one): the lines' paging total. */
  lineTotal: z.number(),
  receipts: z.array(z.object({ id: z.number(), amount: money, date: z.string(), note: z.string().nullable(), username: z.string().nullable(), createTime: z.string().nullable() })),
  events: z.array(z.object({ fromState: z.string().nullable(), toState: z.string(), note: z.string().nullable(), username: z.string().nullable(), createTime: z.string().nullable() })),
});
export type SettlementDetail = z.output<typeof settlementDetail>;

export const generateSettlement = defineContract({
  method: 'POST',
  path: '/api/settlement/generate',
  auth: SETTLEMENT_CODES.create,
  summary: '生成结算单（工资已确认的单位月份；草稿重新生成替换，已发送后生成新版本）',
  tags,
  log: '生成结算单',
  body: z.object({ companyId: id, month }),
  response: z.object({ message: z.string(), statement: settlementSummary }),
});

export const listSettlements = defineContract({
  method: 'GET',
  path: '/api/settlement',
  auth: SETTLEMENT_CODES.select,
  summary: '结算单列表（单位、月份、状态；默认只列最新版本）',
  tags,
  query: z.object({
    page: page.optional(),
    size: size.optional(),
    companyId: id.optional(),
    month: month.optional(),
    state: z.enum(SETTLEMENT_STATES, codedText('PAYOUT_STATE_INVALID')).optional(),
    allVersions: z.enum(['true', 'false'], codedText('FLAG_TRUE_FALSE', { label: 'allVersions' })).optional(),
  }),
  response: z.object({ content: z.array(settlementSummary), totalElements: z.number() }),
});

export const getSettlement = defineContract({
  method: 'GET',
  path: '/api/settlement/:id',
  auth: SETTLEMENT_CODES.select,
  summary: '结算单详情（表头、明细的一页（按姓名或身份证号搜索）、回款、状态记录）',
  tags,
  params: z.object({ id }),
  query: z.object({
    page: page.optional(),
    /** Up to 500 lines a page: the printable page reads a large statement in a few calls. */
    size: pageSize(500).optional(),
    keyword: z.string().trim().max(50, codedText('TEXT_TOO_LONG', { label: '搜索内容', max: 50 })).optional(),
  }),
  response: settlementDetail,
});

export const changeSettlementState = defineContract({
  method: 'PUT',
  path: '/api/settlement/:id/state',
  auth: SETTLEMENT_CODES.edit,
  summary: '变更结算单状态（发送、确认、异议、开票；非法变更为409）',
  tags,
  log: '变更结算单状态',
  params: z.object({ id }),
  body: z.object({
    state: z.enum(SETTLEMENT_STATES, codedText('PAYOUT_STATE_INVALID')),
    note: note.optional(),
    invoiceNo: z.string().trim().max(50, codedText('TEXT_TOO_LONG', { label: '发票号码', max: 50 })).optional(),
    invoiceDate: date.optional(),
    invoiceAmount: yuan.optional(),
  }),
  response: settlementSummary,
});

export const deleteSettlement = defineContract({
  method: 'DELETE',
  path: '/api/settlement/:id',
  auth: SETTLEMENT_CODES.delete,
  summary: '删除草稿结算单',
  tags,
  log: '删除结算单',
  params: z.object({ id }),
  response: z.object({ deleted: z.number() }),
});

export const addSettlementReceipt = defineContract({
  method: 'POST',
  path: '/api/settlement/:id/receipts',
  auth: SETTLEMENT_CODES.create,
  summary: '登记回款（开票后；合计达到合计应收为已结清，否则部分回款）',
  tags,
  log: '登记回款',
  params: z.object({ id }),
  body: z.object({ amount: yuan, date, note: note.optional() }),
  response: settlementSummary,
});

export const receiptRow = z.object({
  id: z.number(),
  settlementId: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  month: z.string(),
  amount: money,
  date: z.string(),
  note: z.string().nullable(),
  username: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type ReceiptRow = z.output<typeof receiptRow>;

export const listSettlementReceipts = defineContract({
  method: 'GET',
  path: '/api/settlement/receipts',
  auth: SETTLEMENT_CODES.select,
  summary: '回款记录（单位、月份）',
  tags,
  query: z.object({ page: page.optional(), size: size.optional(), companyId: id.optional(), month: month.optional() }),
  response: z.object({ content: z.array(receiptRow), totalElements: z.number() }),
});

export const receivableRow = z.object({
  companyId: z.number(),
  companyName: z.string().nullable(),
  month: z.string(),
  settlementId: z.number(),
  version: z.number(),
  state: z.enum(SETTLEMENT_STATES),
  /** 应收 (本期应收) */
  due: money,
  /** 实收 */
  received: money,
  /** 本月欠 (+) / 挂 (−) */
  balance: money,
  /** 累计欠款 */
  cumulative: money,
});
export type ReceivableRow = z.output<typeof receivableRow>;

export const listReceivables = defineContract({
  method: 'GET',
  path: '/api/receivables',
  auth: SETTLEMENT_CODES.select,
  summary: '应收台账（每单位每月：应收、实收、本月欠/挂、累计欠款）',
  tags,
  query: z.object({ companyId: id.optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(receivableRow), totalElements: z.number() }),
});

export const exportSettlement = defineContract({
  method: 'GET',
  path: '/api/export/settlement/:id',
  auth: SETTLEMENT_CODES.select,
  summary: '导出结算单（.xlsx：表头、明细、合计、用工单位确认）',
  tags,
  params: z.object({ id }),
});

/** The home screen's month close (首页 › 本月工资): what the statements of a month still need, in counts. */
export const settlementMonthSummary = z.object({
  month: z.string(),
  /** Companies whose salary month is confirmed but have no statement for it yet. */
  toGenerate: z.number(),
  /** 草稿: generated, not sent. */
  toSend: z.number(),
  /** 已发送: waiting for the client's confirmation. */
  awaitingConfirmation: z.number(),
  disputed: z.number(),
  /** Sent statements whose salary month was reopened (需重开). */
  needsReopen: z.number(),
  /** Client companies whose invoiced statements (every month) are not fully paid. */
  unpaid: z.number(),
  /** What the invoiced statements still owe, every month, as the ledger counts it (应收 − 实收; an overpayment lowers it). */
  unpaidAmount: money,
});
export type SettlementMonthSummary = z.output<typeof settlementMonthSummary>;

export const getSettlementMonthSummary = defineContract({
  method: 'GET',
  path: '/api/settlement/month',
  auth: SETTLEMENT_CODES.select,
  summary: '首页：本月结算单进度（待生成、待发送、待确认、有异议、需重开）与已开票未回款',
  tags,
  query: z.object({ month: month.optional() }),
  response: settlementMonthSummary,
});
