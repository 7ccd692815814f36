import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * Payslips (工资条): imported from a spreadsheet or generated from a confirmed salary month. Labels follow
 * shared/reference/glossary.md (items marked (?) there are the most likely reading; correct them here only).
 * Ordinary employees (job 普通员工) only ever see rows whose idCard equals their username (server-enforced).
 */

/** Income items (pinyin API name, Chinese label), in the order of the spec. */
export const PAYSLIP_INCOME_ITEMS: readonly [string, string][] = [
  ['banzhuren', '班主任津贴'],
  ['bishisheng', '毕实生'],
  ['bufaxuesheng', '补发学生'],
  ['chuangshou', '创收'],
  ['fudaoyuan', '辅导员津贴'],
  ['gangweixing', '岗位性津贴'],
  ['hengxiang', '横向课题'],
  ['jichu', '基础工资'],
  ['jiaoxue', '教学津贴'],
  ['juanzeng', '捐赠'],
  ['kecheng', '课程费'],
  ['keshi', '课时费'],
  ['kunnan', '困难补助'],
  ['laowu', '劳务费'],
  ['lunwen', '论文奖励'],
  ['shenghuo', '生活补贴'],
  ['shuoshi', '硕士'],
  ['teqin', '特勤津贴'],
  ['teshugangwei', '特殊岗位津贴'],
  ['teshujixiao', '特殊绩效'],
  ['shichu', '实出'],
  ['tuchu', '突出贡献'],
  ['xifa', '系发'],
  ['xiaofa', '校发'],
  ['xiaoling', '校领'],
  ['xieyi', '协议工资'],
  ['xueshi', '学时'],
  ['yidi', '异地补贴'],
  ['zhaosheng', '招生'],
  ['zhuanjia', '专家津贴'],
  ['zhuanxiang1', '专项1'],
  ['zhuanxiang2', '专项2'],
  ['zongxiang', '纵向课题'],
  ['zuopin', '作品奖励'],
  ['zizhu', '资助'],
  ['xiaonei', '校内'],
  ['youxiujiang', '优秀奖'],
  ['bumenkaohe', '部门考核'],
  ['nianzhong1', '年终1'],
  ['nianzhong2', '年终2'],
  // Not in the spec's list: the salary flow's 加班费 and pre-tax 扣款, so that a generated payslip adds up on
  // its face (finding P7: 基础工资 8,000.00 above 应发合计 8,250.00 with the difference only in 备注).
  ['jiaban', '加班费'],
  ['koukuan', '扣款（税前）'],
  // issue 20 item 7: 补发 / 补扣 are wages of the month (in 本期应发); 经济补偿金 is taxed on its own (its tax: 补偿金个税)
  ['bufa', '补发'],
  ['bukou', '补扣'],
  ['jingjibuchang', '经济补偿金'],
  ['benqi', '本期应发'],
];

/** Income-section items that reduce 本期应发 (stored positive, shown and added up with a minus sign). */
export const PAYSLIP_PRE_TAX_DEDUCTIONS: ReadonlySet<string> = new Set(['koukuan', 'bukou']);

/** Deduction and result items. */
export const PAYSLIP_DEDUCTION_ITEMS: readonly [string, string][] = [
  ['yanglao', '养老(8%)'],
  ['yiliao', '医疗(2%+3)'],
  ['shiye', '失业(0.5%)'],
  ['gongjijin', '公积金(12%)'],
  ['shebaogeren', '社保个人合计'],
  ['shebaogongjijin', '社保公积金合计'],
  ['yingshui', '应税所得'],
  ['yingna', '应纳税额'],
  ['nianzhong3', '年终3'],
  ['buchangshui', '经济补偿金个税'],
  ['gonghui', '工会费'],
  ['shuihou', '税后'],
  // What the month's pay could not cover (issue 20 item 5, PB4): 上月应扣未扣 deducted first, then 应扣未扣 (carried to
  // the next month) or 单位垫付 (advanced by the company); 实发 is never below zero.
  ['shangyueweikou', '上月应扣未扣'],
  ['yingkouweikou', '应扣未扣'],
  ['danweidianfu', '单位垫付'],
  ['shifa', '实发'],
  ['nianzhong4', '年终4'],
];

/** Every money item of a payslip, income first. */
export const PAYSLIP_MONEY_ITEMS: readonly string[] = [...PAYSLIP_INCOME_ITEMS, ...PAYSLIP_DEDUCTION_ITEMS].map(([n]) => n);

// 应税所得 is this month's share of the cumulative taxable income and is negative below the basic deduction.
const SIGNED_ITEMS = new Set(['yingshui']);
const SHOWN_ITEMS = new Set(['jichu', 'benqi', 'shebaogongjijin', 'yingna', 'shifa']);

const money = ([name, label]: readonly [string, string]): FieldDef => ({
  name,
  kind: 'money',
  label,
  list: SHOWN_ITEMS.has(name),
  ...(SIGNED_ITEMS.has(name) ? { min: -10_000_000 } : {}),
});

/** How a payslip came to be: generated rows are replaced by the next generation, imported ones never are. */
export const PAYSLIP_SOURCE = { generated: '生成', imported: '导入' } as const;

export const payslipResource = defineResource({
  name: 'acPayslip',
  table: 'ac_payslip',
  permission: 'ACPAYSLIP',
  // Spec §6: import needs ADMIN or ACPAYSLIP_CREATE (ACPAYSLIP_ALL stands for every ACPAYSLIP action).
  permissions: { import: ['ACPAYSLIP_ALL', 'ACPAYSLIP_CREATE'] },
  label: '工资条',
  dialogWidth: 800,
  defaultSort: [
    ['month', 'desc'],
    ['idCard', 'asc'],
  ],
  excel: { fileName: '工资条', templateName: '工资条模板', importMode: 'allOrNothing' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'month', kind: 'month', label: '月份', required: '请选择月份', filter: 'eq' },
    { name: 'xuhao', kind: 'int', label: '序号', min: 0, list: false },
    { name: 'xiaofang', kind: 'string', label: '校方', list: false },
    { name: 'gonghao', kind: 'string', label: '工号', maxLength: 50 },
    { name: 'name', kind: 'string', label: '姓名', required: '请输入姓名', maxLength: 50, filter: 'like' },
    { name: 'idCard', kind: 'idCard', label: '身份证号', required: '请输入身份证号', filter: 'like', width: 180 },
    { name: 'bank', kind: 'string', label: '银行', list: false },
    { name: 'bankNumber', kind: 'string', label: '银行账号', maxLength: 50, list: false },
    { name: 'beizhu', kind: 'string', label: '备注', maxLength: 500, list: false },
    { name: 'mingcheng', kind: 'string', label: '名称', list: false },
    ...PAYSLIP_INCOME_ITEMS.map(money),
    ...PAYSLIP_DEDUCTION_ITEMS.map(money),
    { name: 'companyId', kind: 'int', label: '单位ID', readOnly: true, list: false, detail: false, excel: false },
    { name: 'source', kind: 'string', label: '来源', readOnly: true, list: false, excel: false },
    { name: 'createTime', kind: 'datetime', label: '创建时间', readOnly: true, list: false, excel: false },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false, excel: false },
  ],
});
