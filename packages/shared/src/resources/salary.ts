import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * Monthly salary rows (月度工资) per client company and month, and the confirmation log.
 * A row is a snapshot of the staff member taken by "生成" (generate); "计算" fills the figures with the payroll
 * engine; "确认" locks the month (tag = 1). Money is yuan on the wire and integer fen in the database.
 */

const m = (name: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, kind: 'money', label, list: false, ...extra });
const r = (name: string, label: string): FieldDef => ({ name, kind: 'ratio', label, list: false });
/** Figures written only by the calculation (never accepted from the client). */
const calc = (name: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => m(name, label, { readOnly: true, excel: false, ...extra });

/** Largest overtime or deduction a row accepts (yuan); anything above is a typing error. */
export const SALARY_ADJUSTMENT_MAX_YUAN = 1_000_000;
/** The largest annual one-time bonus a row takes, in yuan. */
export const SALARY_BONUS_MAX_YUAN = 10_000_000;

/** Base and ratio fields copied from the staff record by "生成" (same API names as on accountsStaff). */
export const SALARY_INSURANCE_FIELDS = [
  'gjjBase',
  'gjjRatio',
  'yanglaoBase',
  'yanglaoRatioCompany',
  'yanglaoRatioSelf',
  'yiliaoBase',
  'yiliaoRatioCompany',
  'yiliaoRatioSelf',
  'yiliaoBaseSelf',
  'shiyeBase',
  'shiyeRatioCompany',
  'shiyeRatioSelf',
  'gongshangBase',
  'gongshangRatioCompany',
  'shengyuBase',
  'shengyuRatioCompany',
] as const;

/** Every staff field the salary row snapshots, by its (shared) API name. */
export const SALARY_SNAPSHOT_FIELDS = [
  'staffName',
  'censusType',
  'idCard',
  'sex',
  'phone',
  'salary',
  'taxesType',
  'insureType',
  'deduct',
  'contractDate',
  'contractStart',
  'contractEnd',
  // months of employment with the withholding agent count from the hire month (P3)
  'inductionDate',
  // the rate dictionary decides the ratios unless the worker's own are explicitly kept (P4)
  'ratioOverride',
  // the 60,000 simplified basic deduction (issue 10 item 6)
  'simplifiedDeduction',
  ...SALARY_INSURANCE_FIELDS,
] as const;

export const salaryResource = defineResource({
  name: 'accountsSalary',
  table: 'accounts_salary',
  permission: 'ACCOUNTSSALARY',
  label: '月度工资',
  dialogWidth: 800,
  // No field is `required`: the inline edit sends only {id, jiaban, koukuan, bonus, bonusMerged}; creation is
  // checked by the server.
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'companyId', kind: 'ref', label: '单位', ref: { resource: 'accountsCompany', labelField: 'companyName' }, filter: 'eq', list: false },
    { name: 'companyName', kind: 'string', label: '单位名称', readOnly: true },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', readOnly: true, list: false },
    { name: 'month', kind: 'month', label: '月份', filter: 'eq' },
    { name: 'staffName', kind: 'string', label: '姓名', maxLength: 50, filter: 'like' },
    { name: 'censusType', kind: 'dict', dict: 'census_type', label: '户籍类型', list: false },
    { name: 'idCard', kind: 'idCard', label: '身份证号', filter: 'like', width: 180 },
    { name: 'sex', kind: 'dict', dict: 'sex', label: '性别', list: false },
    { name: 'phone', kind: 'phone', label: '手机号', filter: 'like' },
    m('salary', '基本工资', { list: true }),
    // A joiner's or leaver's month is prorated (P2): 基本工资 is then the part of 月薪标准 for the days paid.
    m('fullSalary', '月薪标准', { readOnly: true, excel: false }),
    { name: 'paidDays', kind: 'int', label: '计薪天数', readOnly: true, list: false, excel: false },
    { name: 'prorationRule', kind: 'dict', dict: 'proration_rule', label: '不满月工资计算', readOnly: true, list: false, excel: false },
    { name: 'taxesType', kind: 'dict', dict: 'taxes_type', label: '税种', list: false },
    { name: 'insureType', kind: 'dict', dict: 'insure_type', label: '保险种类', list: false },
    m('deduct', '专项附加扣除', { list: true }),
    // 其他扣除 (商业健康险, 个人养老金) of the month: from 专项附加扣除明细 when the month has a row there
    m('otherDeduct', '其他扣除', { readOnly: true, excel: false }),
    { name: 'simplifiedDeduction', kind: 'bool', label: '适用6万元减除', readOnly: true, list: false, excel: false },
    { name: 'contractDate', kind: 'date', label: '签订日期', list: false },
    { name: 'contractStart', kind: 'date', label: '合同开始', list: false },
    { name: 'contractEnd', kind: 'date', label: '合同结束', list: false },
    { name: 'inductionDate', kind: 'date', label: '入职日期', readOnly: true, list: false, excel: false },
    { name: 'ratioOverride', kind: 'bool', label: '使用个人比例', readOnly: true, list: false, excel: false },
    m('gjjBase', '公积金基数'),
    r('gjjRatio', '公积金比例'),
    m('yanglaoBase', '养老保险基数'),
    r('yanglaoRatioCompany', '养老保险单位比例'),
    r('yanglaoRatioSelf', '养老保险个人比例'),
    m('yiliaoBase', '医疗保险基数'),
    r('yiliaoRatioCompany', '医疗保险单位比例'),
    r('yiliaoRatioSelf', '医疗保险个人比例'),
    m('yiliaoBaseSelf', '医疗保险个人缴费基数'),
    m('shiyeBase', '失业保险基数'),
    r('shiyeRatioCompany', '失业保险单位比例'),
    r('shiyeRatioSelf', '失业保险个人比例'),
    m('gongshangBase', '工伤保险基数'),
    r('gongshangRatioCompany', '工伤保险单位比例'),
    m('shengyuBase', '生育保险基数'),
    r('shengyuRatioCompany', '生育保险单位比例'),
    calc('fiveOne', '五险一金(个人)', { list: true }),
    m('jiaban', '加班费', { list: true, max: SALARY_ADJUSTMENT_MAX_YUAN }),
    m('koukuan', '扣款', { list: true, max: SALARY_ADJUSTMENT_MAX_YUAN }),
    // 全年一次性奖金 (issue 10 item 7): taxed on its own (财政部 税务总局公告2023年第30号, once per tax year, to
    // 2027-12-31) unless merged into the month's wages; its tax is its own line, apart from 个人所得税.
    m('bonus', '全年一次性奖金', { max: SALARY_BONUS_MAX_YUAN }),
    { name: 'bonusMerged', kind: 'bool', label: '奖金并入当月工资计税', list: false },
    // 补发 / 补扣 (issue 20 item 7): wages of this month with the earlier month they refer to; 经济补偿金 exempt up to
    // 3 × the local average annual wage, the rest taxed on its own (财税〔2018〕164号), its tax on its own line.
    m('backPay', '补发', { max: SALARY_ADJUSTMENT_MAX_YUAN }),
    { name: 'backPayMonth', kind: 'month', label: '补发所属月份', list: false },
    m('backDeduct', '补扣', { max: SALARY_ADJUSTMENT_MAX_YUAN }),
    { name: 'backDeductMonth', kind: 'month', label: '补扣所属月份', list: false },
    m('severance', '经济补偿金', { max: SALARY_BONUS_MAX_YUAN }),
    calc('severanceExempt', '经济补偿金免税额'),
    calc('severanceTax', '经济补偿金个税'),
    calc('tax', '个人所得税', { list: true }),
    calc('bonusTax', '年终奖个税'),
    calc('realSalary', '实发工资', { list: true }),
    // What the month's pay could not cover (issue 20 item 5): 实发 is never below zero; 上月应扣未扣 is deducted first,
    // the rest left is 应扣未扣 (next month) or 单位垫付, by the client company's 欠款处理方式.
    calc('carriedIn', '上月应扣未扣', { list: true }),
    calc('unpaid', '应扣未扣', { list: true }),
    calc('advanced', '单位垫付', { list: true }),
    { name: 'tag', kind: 'int', label: '锁定', readOnly: true, list: false, excel: false },
    calc('gross', '应发工资'),
    calc('yanglao', '养老保险(个人)'),
    calc('yiliao', '医疗保险(个人)'),
    calc('shiye', '失业保险(个人)'),
    calc('gongjijin', '公积金(个人)'),
    { name: 'monthIndex', kind: 'int', label: '本年任职受雇月份数', readOnly: true, list: false, excel: false },
    // The employer's side (issue 10 item 9): what the client company is billed on top of 应发.
    calc('employerYanglao', '养老保险(单位)'),
    calc('employerYiliao', '医疗保险(单位)'),
    calc('employerShiye', '失业保险(单位)'),
    calc('employerGongshang', '工伤保险(单位)'),
    calc('employerShengyu', '生育保险(单位)'),
    calc('employerGongjijin', '公积金(单位)'),
    // 补差 of earlier, confirmed months placed into this month (issue 24: 调基 and 社保平账): the personal part is
    // inside 五险一金(个人), the employer part inside 单位缴纳合计
    calc('siBackSelf', '补缴社保个人'),
    calc('siBackCompany', '补缴社保单位'),
    calc('employerTotal', '单位缴纳合计'),
    calc('labourCost', '用工成本合计'),
    calc('cumulativeIncome', '累计收入'),
    calc('cumulativeTaxable', '累计应纳税所得额'),
    calc('cumulativeTax', '累计应纳税额'),
    calc('taxableThisMonth', '本月应纳税所得额'),
    // Kept by "生成" when the month is generated again: hand-added rows and hand-edited 加班费/扣款.
    { name: 'origin', kind: 'string', label: '来源', readOnly: true, list: false, excel: false },
    { name: 'adjustEdited', kind: 'bool', label: '人工修改', readOnly: true, list: false, excel: false },
    { name: 'calculated', column: 'calc_state', kind: 'bool', label: '已计算', readOnly: true, list: false, excel: false },
    { name: 'calculateTime', kind: 'datetime', label: '计算时间', readOnly: true, list: false, excel: false },
    { name: 'createTime', kind: 'datetime', label: '创建时间', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});

/** Who confirmed which company's month, and when; one row per (company, month), enforced by the database. */
export const confirmLogResource = defineResource({
  name: 'accountsConfirmLog',
  table: 'accounts_confirm_log',
  permission: 'ACCOUNTSSALARY',
  label: '工资确认记录',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'companyId', kind: 'ref', label: '单位', ref: { resource: 'accountsCompany', labelField: 'companyName' }, filter: 'eq', list: false },
    { name: 'companyName', kind: 'string', label: '单位名称', readOnly: true },
    { name: 'month', kind: 'month', label: '月份', filter: 'eq' },
    { name: 'rowCount', kind: 'int', label: '工资条数', readOnly: true },
    { name: 'username', kind: 'string', label: '确认人账号', readOnly: true },
    { name: 'cname', kind: 'string', label: '确认人', readOnly: true },
    { name: 'createTime', kind: 'datetime', label: '确认时间', readOnly: true },
  ],
});
