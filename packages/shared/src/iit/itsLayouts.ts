/**
 * The 自然人电子税务局（扣缴端）(ITS) import layouts, column for column in ITS's order (month-close.md §B2: several
 * public codebases agree; `*` marks what ITS requires). ITS refuses a workbook whose headers differ from its
 * template, so these lists are binding: change them only against the current ITS template (§9 item 5).
 */

/** 正常工资薪金所得, sheet 正常工资薪金收入 (24 columns). */
export const ITS_WAGE_COLUMNS = [
  '工号', '*姓名', '*证件类型', '*证件号码', '本期收入', '本期免税收入', '基本养老保险费', '基本医疗保险费', '失业保险费', '住房公积金', '累计子女教育',
  '累计继续教育', '累计住房贷款利息', '累计住房租金', '累计赡养老人', '累计3岁以下婴幼儿照护', '累计个人养老金', '企业(职业)年金', '商业健康保险',
  '税延养老保险', '其他', '准予扣除的捐赠额', '减免税额', '备注',
] as const;
export const ITS_WAGE_SHEET = '正常工资薪金收入';

/** 全年一次性奖金收入, sheet 全年一次性奖金 (11 columns; rows with a bonus only). */
export const ITS_BONUS_COLUMNS = ['工号', '*姓名', '*证件类型', '*证件号码', '*全年一次性奖金额', '免税收入', '其他', '准予扣除的捐赠额', '减免税额', '协定减免', '备注'] as const;
export const ITS_BONUS_SHEET = '全年一次性奖金';

const address = (what: string) => ['省', '市', '区县', '详细地址'].map((p) => `${what}（${p}）`);

/** 人员信息采集, sheet 人员信息 (51 columns). */
export const ITS_PERSON_COLUMNS = [
  '工号', '*姓名', '*证件类型', '*证件号码', '*国籍(地区)', '*性别', '*出生日期', '是否高级专家', '*任职受雇从业类型', '其他情况说明', '入职年度就业情形', '手机号码',
  '任职受雇从业日期', '离职日期', '是否离职后补发工资', '实际补发工资的月份', '是否残疾', '是否烈属', '是否孤老', '残疾证件类型', '残疾证号', '烈属证号',
  '是否扣除减除费用', '个人投资额', '个人投资比例(%)', '备注', '中文名', '涉税事由', '出生国家(地区)', '首次入境时间', '预计离境时间', '其他证件类型', '其他证件号码',
  ...address('户籍所在地'), ...address('经常居住地'), ...address('联系地址'), '电子邮箱', '学历', '开户银行', '银行账号', '开户行省份', '职务',
] as const;
export const ITS_PERSON_SHEET = '人员信息';

/** What 增减员 adds after the 51 columns: which list the person is on and why. */
export const ITS_CHANGE_AUDIT_COLUMNS = ['变动类型', '核对说明'] as const;

/** A header as ITS versions write it: full-width brackets, spaces and the `*` of required columns do not count. */
export function normalizeItsHeader(s: string): string {
  return s
    .replace(/[（]/g, '(')
    .replace(/[）]/g, ')')
    .replace(/[\s*＊]/g, '')
    .trim();
}
