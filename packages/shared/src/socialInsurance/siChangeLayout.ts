import { z } from 'zod';
import { codedText } from '../errors/zodIssues.ts';
import { TemplatePartError, templatePartIssue } from '../errors/templatePartError.ts';

/**
 * The layout an SI / HF change template describes (issue 24 item 3; month-close.md §B4): per list (增员, 减员,
 * 基数变更) the columns, each one of the fixed person fields below with its format, or a constant. Parsed from the
 * template's JSON text fields when it is saved and when a file is written. Pure: the server writes files with it,
 * the web shows the field names.
 */

/** The lists a bureau takes: 增员 (insured from this month), 减员 (left or stopped), 基数变更. */
export const SI_CHANGE_KINDS = ['add', 'remove', 'base'] as const;
export type SiChangeKind = (typeof SI_CHANGE_KINDS)[number];
export const SI_CHANGE_KIND_LABELS: Record<SiChangeKind, string> = { add: '增员', remove: '减员', base: '基数变更' };

/** Who the template is for: the social-insurance bureau or the housing-fund centre. */
export const SI_CHANGE_TARGETS = { si: '社保', hf: '公积金' } as const;
export type SiChangeTarget = keyof typeof SI_CHANGE_TARGETS;

export const SI_CHANGE_FILE_TYPES = { xlsx: 'Excel (.xlsx)', xls: 'Excel 97-2003 (.xls)', csv: 'CSV (.csv)' } as const;

/** What a column can hold. Bases are yuan of the list's month (`oldBase`/`newBase`: the target's main base). */
export const SI_CHANGE_FIELDS = {
  seq: '序号',
  name: '姓名',
  idNumber: '身份证号',
  idType: '证件类型',
  sex: '性别',
  born: '出生日期',
  phone: '手机号',
  nation: '民族',
  education: '学历',
  address: '通讯地址',
  dept: '部门名称',
  job: '岗位',
  censusType: '户籍性质',
  startMonth: '起始月份',
  reason: '增减员原因',
  yanglaoBase: '养老保险基数',
  yiliaoBase: '医疗保险基数',
  shiyeBase: '失业保险基数',
  gongshangBase: '工伤保险基数',
  shengyuBase: '生育保险基数',
  gjjBase: '公积金缴存基数',
  gjjRatio: '公积金缴存比例',
  oldBase: '变更前基数',
  newBase: '变更后基数',
  // not kept in the staff record: the clerk fills it in, or the bureau matches by 证件号码
  personalNo: '个人编号',
  unitNo: '单位编号',
  unitName: '单位名称',
} as const;
export type SiChangeField = keyof typeof SI_CHANGE_FIELDS;
const fieldKeys = Object.keys(SI_CHANGE_FIELDS) as [SiChangeField, ...SiChangeField[]];

/** Formats: months and dates (起始月份, 出生日期); money as 2 decimals or whole yuan (HALF_UP); a ratio as % or decimal. */
export const SI_CHANGE_FORMATS = ['yyyyMM', 'yyyy-MM', 'yyyyMMdd', 'yyyy-MM-dd', 'yuan', 'integer', 'percent', 'decimal'] as const;
export type SiChangeFormat = (typeof SI_CHANGE_FORMATS)[number];

const column = z
  .object({
    title: z.string().min(1, codedText('LAYOUT_COLUMN_TITLE_REQUIRED')).max(50),
    field: z.enum(fieldKeys).optional(),
    /** a constant (e.g. 参加险种 or 证件类型 code) instead of a field */
    value: z.string().max(100).optional(),
    format: z.enum(SI_CHANGE_FORMATS).optional(),
    /** the bureau's words or codes for our values, e.g. {"男":"1","女":"2"} or census types to 缴费人员类别 */
    map: z.record(z.string().max(50), z.string().max(100)).optional(),
  })
  .refine((c) => c.field !== undefined || c.value !== undefined, codedText('LAYOUT_COLUMN_FIELD_OR_VALUE'));
export type SiChangeColumn = z.output<typeof column>;

export const siChangeColumnsSchema = z.array(column).max(60, codedText('LAYOUT_COLUMNS_AT_MOST', { max: 60 }));
const headerLinesSchema = z.array(z.string().max(500)).max(20);

/** Placeholders of header lines and of the file name. */
export const SI_CHANGE_PLACEHOLDERS = ['companyName', 'month', 'kind', 'count', 'unitNo', 'unitName', 'region', 'target'] as const;

export interface SiChangeLayout {
  target: SiChangeTarget;
  region: string;
  fileType: keyof typeof SI_CHANGE_FILE_TYPES;
  encoding: 'GBK' | 'GB18030' | 'UTF-8' | 'UTF-8-BOM';
  titleRow: boolean;
  headerLines: string[];
  columns: Record<SiChangeKind, SiChangeColumn[]>;
  unitNo: string;
  unitName: string;
  fileNamePattern: string;
}

/** An SI change template part that is wrong (its label and the reason); see TemplatePartError. */
export class SiChangeLayoutError extends TemplatePartError {}

function parseJson<T>(text: unknown, schema: z.ZodType<T>, part: string, empty: T): T {
  const s = typeof text === 'string' ? text.trim() : '';
  if (!s) return empty;
  let raw: unknown;
  try {
    raw = JSON.parse(s);
  } catch {
    throw new SiChangeLayoutError(part, { code: 'LAYOUT_NOT_JSON' });
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new SiChangeLayoutError(part, templatePartIssue(r.error));
  return r.data;
}

/** The template field holding each list's columns, and its label. */
export const SI_CHANGE_COLUMN_FIELDS: Record<SiChangeKind, { name: 'addColumns' | 'removeColumns' | 'baseColumns'; label: string }> = {
  add: { name: 'addColumns', label: '增员列' },
  remove: { name: 'removeColumns', label: '减员列' },
  base: { name: 'baseColumns', label: '基数变更列' },
};

/** A stored template row (API field names) as a layout; throws SiChangeLayoutError naming the wrong part. */
export function parseSiChangeLayout(t: Record<string, unknown>): SiChangeLayout {
  const target = String(t.target ?? '');
  if (!(target in SI_CHANGE_TARGETS)) throw new SiChangeLayoutError('对象', { code: 'LAYOUT_UNSUPPORTED', params: { value: target } });
  const fileType = String(t.fileType ?? '');
  if (!(fileType in SI_CHANGE_FILE_TYPES)) throw new SiChangeLayoutError('文件类型', { code: 'LAYOUT_UNSUPPORTED', params: { value: fileType } });
  const encoding = String(t.encoding ?? '');
  if (!['GBK', 'GB18030', 'UTF-8', 'UTF-8-BOM'].includes(encoding)) throw new SiChangeLayoutError('编码', { code: 'LAYOUT_UNSUPPORTED', params: { value: encoding } });
  const columns = {} as Record<SiChangeKind, SiChangeColumn[]>;
  for (const kind of Object.keys(SI_CHANGE_COLUMN_FIELDS) as SiChangeKind[]) {
    const { name, label } = SI_CHANGE_COLUMN_FIELDS[kind];
    columns[kind] = parseJson(t[name], siChangeColumnsSchema, label, []);
  }
  if (!columns.add.length && !columns.remove.length && !columns.base.length) throw new SiChangeLayoutError('增员列', { code: 'LAYOUT_LISTS_NEED_COLUMNS' });
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return {
    target: target as SiChangeTarget,
    region: str(t.region),
    fileType: fileType as SiChangeLayout['fileType'],
    encoding: encoding as SiChangeLayout['encoding'],
    titleRow: t.titleRow === undefined || t.titleRow === null ? true : t.titleRow === true || t.titleRow === 1,
    headerLines: parseJson(t.headerLines, headerLinesSchema, '表头行', []),
    columns,
    unitNo: str(t.unitNo),
    unitName: str(t.unitName),
    fileNamePattern: str(t.fileNamePattern) || '{region}{target}{kind}_{companyName}_{month}',
  };
}
