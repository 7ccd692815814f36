import { z } from 'zod';
import { defineContract } from './contract.ts';
import { codedRule, codedText } from '../errors/zodIssues.ts';
import { monthText, pageNumber, pageSize, positiveId } from './schemas.ts';

/**
 * 调基 with back pay and 社保平账 (Month close III, issue 24 items 2 and 4; reference month-close.md §B4).
 * - 调基: new social-insurance / housing-fund bases for a client company's staff from a month, uploaded or the prior
 *   year's monthly average 应发 from confirmed months, clamped to the floor and ceiling of the rate version in force
 *   from that month. Applying it to months already confirmed creates 补差 items (personal and employer, per
 *   insurance) in the next open month; confirmed months are never rewritten. Applying the same bases again creates
 *   nothing: a month's 补差 is what the new bases owe minus what is already placed for it.
 * - 社保平账: the bureau's monthly 应缴明细 against our figures of a confirmed month (its rows plus the 补差 placed
 *   for it); an accepted difference becomes a 补差 item of the next open month.
 * Money is yuan on the wire.
 */
const tags = ['社保调基与平账'] as const;

const id = positiveId();
const month = monthText();
const page = pageNumber();
const size = pageSize(100);
/** a base in yuan, at most two decimals, below 10 million */
const baseYuan = z
  .number(codedText('SIADJUST_BASE_NOT_AMOUNT'))
  .min(0, codedText('SIADJUST_BASE_NEGATIVE'))
  .max(9_999_999.99, codedText('SIADJUST_BASE_TOO_LARGE'))
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, codedText('FIELD_MONEY_SCALE', { label: '基数' }));

export const SI_INSURANCES = ['yanglao', 'yiliao', 'shiye', 'gongshang', 'shengyu', 'gongjijin'] as const;
export type SiInsurance = (typeof SI_INSURANCES)[number];
export const SI_INSURANCE_LABELS: Record<SiInsurance, string> = {
  yanglao: '养老保险',
  yiliao: '医疗保险',
  shiye: '失业保险',
  gongshang: '工伤保险',
  shengyu: '生育保险',
  gongjijin: '住房公积金',
};

/**
 * One person's new bases as uploaded: `base` is the one social-insurance base (养老, 医疗, 失业, 工伤, 生育) unless an
 * insurance has its own column; `gongjijin` the housing-fund base (absent: unchanged).
 */
export const uploadedBase = z.object({
  idCard: z.string(codedText('DATASOURCE_SQL_FIELD_REQUIRED', { label: '身份证号' })).trim().min(15, codedText('SIADJUST_ID_CARD_LENGTH')).max(18, codedText('SIADJUST_ID_CARD_LENGTH')),
  staffName: z.string().trim().max(50).optional(),
  base: baseYuan.optional(),
  yanglao: baseYuan.optional(),
  yiliao: baseYuan.optional(),
  shiye: baseYuan.optional(),
  gongshang: baseYuan.optional(),
  shengyu: baseYuan.optional(),
  gongjijin: baseYuan.optional(),
});
export type UploadedBase = z.output<typeof uploadedBase>;

const adjustBody = z
  .object({
    companyId: id,
    fromMonth: month,
    source: z.enum(['average', 'upload'], codedText('SIADJUST_SOURCE_INVALID')),
    /** upload: the bases read by POST /api/import/siAdjust (1–20,000 persons) */
    bases: z.array(uploadedBase).max(20_000, codedText('SIADJUST_TOO_MANY_PEOPLE')).optional(),
    /** average: also adjust the housing-fund base (default yes) */
    housingFund: z.boolean().optional(),
  })
  .refine((b) => b.source !== 'upload' || (b.bases?.length ?? 0) > 0, { ...codedRule('SIADJUST_UPLOAD_FIRST'), path: ['bases'] });

export const SI_CLAMPS = ['floor', 'ceiling'] as const;

export const adjustItem = z.object({
  insurance: z.enum(SI_INSURANCES),
  old: z.number().nullable(),
  new: z.number(),
  /** the value asked for was below the floor / above the ceiling of the rate version in force from the month */
  clamp: z.enum(SI_CLAMPS).nullable(),
  /** the value asked for, before the clamp */
  requested: z.number(),
});

export const adjustPerson = z.object({
  staffId: z.number(),
  idCard: z.string(),
  staffName: z.string().nullable(),
  censusType: z.string().nullable(),
  /** average: the prior year's monthly average 应发 and the confirmed months it is taken over */
  average: z.number().nullable(),
  months: z.number(),
  items: z.array(adjustItem),
  /** 补差 of this person: per month and insurance, yuan */
  backPay: z.array(z.object({ month: z.string(), insurance: z.enum(SI_INSURANCES), self: z.number(), company: z.number() })),
});
export type AdjustPerson = z.output<typeof adjustPerson>;

/** Why a person is left out (no staff record, no rate, no prior-year month). */
export const SI_ADJUST_SKIP_CODES = ['notStaff', 'noRate', 'noHistory', 'noBase', 'duplicate'] as const;

export const adjustPreview = z.object({
  companyId: z.number(),
  companyName: z.string(),
  fromMonth: z.string(),
  /** the confirmed months from fromMonth on (their 补差 go into targetMonth) */
  confirmedMonths: z.array(z.string()),
  /** the next open month (after the last confirmed one); null when no confirmed month is affected */
  targetMonth: z.string().nullable(),
  people: z.array(adjustPerson),
  skipped: z.array(z.object({ idCard: z.string(), staffName: z.string().nullable(), code: z.enum(SI_ADJUST_SKIP_CODES), detail: z.string().nullable() })),
  /** how many bases change, and how many are clamped */
  changedBases: z.number(),
  clamped: z.number(),
  /** the 补差 items applying creates: rows, persons, totals (yuan) */
  backRows: z.number(),
  backPeople: z.number(),
  totalSelf: z.number(),
  totalCompany: z.number(),
  /** per confirmed month: rows and totals */
  byMonth: z.array(z.object({ month: z.string(), rows: z.number(), self: z.number(), company: z.number() })),
});
export type AdjustPreview = z.output<typeof adjustPreview>;

export const previewSiAdjust = defineContract({
  method: 'POST',
  path: '/api/siAdjust/preview',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT', 'SIADJUST_APPLY'],
  summary: '调基预览：每人每险种的原基数 → 新基数（标出按上下限调整的），以及应用后将生成的补差',
  tags,
  log: '',
  body: adjustBody,
  response: adjustPreview,
});

export const applySiAdjust = defineContract({
  method: 'POST',
  path: '/api/siAdjust/apply',
  auth: ['SIADJUST_ALL', 'SIADJUST_APPLY'],
  summary: '应用调基：自该月起更新员工与未确认工资的基数；已确认月份的差额作为补差计入下一个未确认月份（已确认月份不改写；重复应用不会重复补差）',
  tags,
  log: '应用社保调基',
  body: adjustBody,
  response: z.object({
    batchId: z.number(),
    targetMonth: z.string().nullable(),
    staffUpdated: z.number(),
    /** unconfirmed salary rows from fromMonth on whose bases changed (to be calculated again) */
    rowsReset: z.number(),
    backRows: z.number(),
    totalSelf: z.number(),
    totalCompany: z.number(),
  }),
});

export const uploadSiAdjust = defineContract({
  method: 'POST',
  path: '/api/import/siAdjust',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT', 'SIADJUST_APPLY'],
  summary: '读取新基数文件（multipart 字段 file；按表头识别：身份证号、姓名、社保基数、公积金基数或各险种基数列）',
  tags,
  log: '',
  response: z.object({
    bases: z.array(uploadedBase),
    /** lines that could not be read: Excel row number and why */
    problems: z.array(z.object({ line: z.number(), message: z.string() })),
  }),
});

export const downloadSiAdjustTemplate = defineContract({
  method: 'GET',
  path: '/api/export/siAdjustTemplate',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT', 'SIADJUST_APPLY'],
  summary: '新基数导入模板（身份证号、姓名、社保基数、公积金基数）',
  tags,
  log: '',
});

export const backItem = z.object({
  id: z.number(),
  idCard: z.string(),
  staffName: z.string().nullable(),
  insurance: z.enum(SI_INSURANCES),
  referMonth: z.string(),
  targetMonth: z.string(),
  self: z.number(),
  company: z.number(),
  source: z.enum(['adjust', 'recon']),
  reason: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type BackItem = z.output<typeof backItem>;

export const listSiBackItems = defineContract({
  method: 'GET',
  path: '/api/siAdjust/items',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT'],
  summary: '补差明细（单位；可按计入月份筛选）',
  tags,
  query: z.object({ companyId: id, targetMonth: month.optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(backItem), totalElements: z.number(), totalSelf: z.number(), totalCompany: z.number() }),
});

// ---- 社保平账 ----

export const SI_RECON_KINDS = ['diff', 'bureauOnly', 'oursOnly'] as const;
export type SiReconKind = (typeof SI_RECON_KINDS)[number];

export const reconSummary = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  month: z.string(),
  fileName: z.string().nullable(),
  /** lines of the file read, and how many agree with our figures */
  fileRows: z.number(),
  matched: z.number(),
  diff: z.number(),
  bureauOnly: z.number(),
  oursOnly: z.number(),
  accepted: z.number(),
  createBy: z.string().nullable(),
  createTime: z.string().nullable(),
});
export type ReconSummary = z.output<typeof reconSummary>;

export const reconLine = z.object({
  id: z.number(),
  idCard: z.string(),
  staffName: z.string().nullable(),
  insurance: z.enum(SI_INSURANCES),
  kind: z.enum(SI_RECON_KINDS),
  bureauSelf: z.number().nullable(),
  bureauCompany: z.number().nullable(),
  ourSelf: z.number().nullable(),
  ourCompany: z.number().nullable(),
  /** bureau − ours, yuan */
  diffSelf: z.number(),
  diffCompany: z.number(),
  state: z.enum(['open', 'accepted']),
  reason: z.string().nullable(),
  targetMonth: z.string().nullable(),
  acceptedBy: z.string().nullable(),
});
export type ReconLine = z.output<typeof reconLine>;

export const importSiRecon = defineContract({
  method: 'POST',
  path: '/api/import/siRecon',
  auth: ['SIADJUST_ALL', 'SIADJUST_IMPORT'],
  summary: '导入社保经办机构的月度应缴明细（multipart：file、companyId、month；按身份证号匹配，列按表头识别）并与本系统数据比对',
  tags,
  log: '导入社保平账明细',
  response: reconSummary,
});

export const listSiRecons = defineContract({
  method: 'GET',
  path: '/api/siRecon',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT', 'SIADJUST_IMPORT', 'SIADJUST_ACCEPT'],
  summary: '平账记录（单位、月份）',
  tags,
  query: z.object({ companyId: id.optional(), month: month.optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(reconSummary), totalElements: z.number() }),
});

export const listSiReconLines = defineContract({
  method: 'GET',
  path: '/api/siRecon/:id/lines',
  auth: ['SIADJUST_ALL', 'SIADJUST_SELECT', 'SIADJUST_IMPORT', 'SIADJUST_ACCEPT'],
  summary: '平账差异明细（分页；可按类型、状态筛选）',
  tags,
  params: z.object({ id }),
  query: z.object({ kind: z.enum(SI_RECON_KINDS, codedText('FIELD_INVALID', { label: '类型' })).optional(), state: z.enum(['open', 'accepted'], codedText('PAYOUT_STATE_INVALID')).optional(), page: page.optional(), size: size.optional() }),
  response: z.object({ content: z.array(reconLine), totalElements: z.number() }),
});

export const acceptSiReconLines = defineContract({
  method: 'POST',
  path: '/api/siRecon/:id/accept',
  auth: ['SIADJUST_ALL', 'SIADJUST_ACCEPT'],
  summary: '确认平账差异：差额（经办机构 − 本系统）作为补差计入下一个未确认月份',
  tags,
  log: '确认社保平账差异',
  params: z.object({ id }),
  body: z.object({
    lineIds: z.array(id, codedText('SIADJUST_LINE_IDS')).min(1, codedText('FIELD_CHOOSE', { label: '要确认的差异' })).max(5_000, codedText('SIADJUST_LINES_MAX')),
    reason: z.string(codedText('DATASOURCE_SQL_FIELD_REQUIRED', { label: '原因' })).trim().min(2, codedText('DATASOURCE_SQL_FIELD_REQUIRED', { label: '原因（至少2个字）' })).max(200, codedText('SIADJUST_REASON_TOO_LONG')),
  }),
  response: z.object({ accepted: z.number(), targetMonth: z.string(), totalSelf: z.number(), totalCompany: z.number() }),
});
