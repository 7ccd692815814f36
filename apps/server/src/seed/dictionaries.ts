/**
 * Dictionaries of spec §3 with Chinese entries. Entries are [label, value]; where the label is what is
 * stored, value equals label. The five census-type rate dictionaries carry ratios (decimal fractions),
 * the fixed medical amount (yuan) and base floors/ceilings (yuan) from shared/reference/payroll-rules.md
 * (Beijing 2025-07 figures; the operator must confirm them before real payroll, see the remarks).
 */
import { BANK_FILE_ENCODINGS, BANK_FILE_TYPES } from '@app/shared/resources/bankTemplate';
import { SI_CHANGE_FILE_TYPES, SI_CHANGE_TARGETS } from '@app/shared/socialInsurance/siChangeLayout';
import { TAX_DEDUCTION_RULES } from '@app/shared/resources/taxDeductionCap';

export interface DictSeed {
  name: string;
  remark: string;
  entries: [label: string, value: string][];
}

const same = (...labels: string[]): [string, string][] => labels.map((l) => [l, l]);

/** Personal/employer ratios and limits shared by the census types unless overridden. */
function rateEntries(overrides: Record<string, string> = {}): [string, string][] {
  const base: Record<string, string> = {
    yanglaoRatioCompany: '0.16',
    yanglaoRatioSelf: '0.08',
    yiliaoRatioCompany: '0.098',
    yiliaoRatioSelf: '0.02',
    yiliaoFixedSelf: '3',
    shiyeRatioCompany: '0.005',
    shiyeRatioSelf: '0.005',
    shengyuRatioCompany: '0',
    gjjRatio: '0.12',
    baseFloor: '7162',
    baseCeiling: '35811',
    gjjBaseFloor: '2540',
    gjjBaseCeiling: '35811',
    effectiveMonth: '2025-07',
  };
  return Object.entries({ ...base, ...overrides });
}

/** Beijing bases from 2024-07 to 2025-06 (payroll-rules.md §2.3; the housing-fund floor is the minimum wage). */
const BEIJING_2024_07 = { baseFloor: '6821', baseCeiling: '35283', gjjBaseFloor: '2420', gjjBaseCeiling: '35283', effectiveMonth: '2024-07' };

export const RATE_DICTIONARIES: Record<string, string> = {
  本农: 'bennong',
  本城: 'bencheng',
  外城: 'waicheng',
  外农: 'wainong',
  '本农（养24号文）': 'bennong_24',
};

export const DICTIONARIES: DictSeed[] = [
  { name: 'user_status', remark: '用户状态', entries: [['激活', 'true'], ['锁定', 'false']] },
  { name: 'dept_status', remark: '部门状态', entries: [['启用', 'true'], ['停用', 'false']] },
  { name: 'job_status', remark: '岗位状态', entries: [['启用', 'true'], ['停用', 'false']] },
  { name: 'sex', remark: '性别', entries: same('男', '女') },
  { name: 'census_type', remark: '户籍类型（值为对应费率字典名）', entries: Object.entries(RATE_DICTIONARIES) },
  { name: 'marriage', remark: '婚姻状况', entries: same('未婚', '已婚', '离异', '丧偶') },
  { name: 'education', remark: '学历', entries: same('小学', '初中', '高中', '中专', '大专', '本科', '硕士', '博士') },
  { name: 'politics', remark: '政治面貌', entries: same('群众', '共青团员', '中共党员', '民主党派') },
  { name: 'job_state', remark: '在职状态', entries: same('在职', '离职', '试用', '退休') },
  { name: 'salary_type', remark: '工资类型', entries: same('月薪', '日薪', '时薪', '计件') },
  { name: 'salary_bank', remark: '工资银行', entries: same('中国工商银行', '中国农业银行', '中国银行', '中国建设银行', '交通银行', '招商银行', '北京银行') },
  { name: 'taxes_type', remark: '税种', entries: same('工资薪金', '劳务报酬') },
  { name: 'insure_type', remark: '保险种类', entries: same('五险一金', '五险', '三险一金', '三险', '不参保') },
  { name: 'insured_state', remark: '参保状态', entries: same('已参保', '未参保', '已停保') },
  { name: 'contract_state', remark: '合同状态', entries: same('未签订', '已签订', '已续签', '已到期', '已解除') },
  { name: 'contract_type', remark: '合同类型', entries: same('固定期限', '无固定期限', '以完成一定工作任务为期限', '劳务派遣') },
  { name: 'contract_warn_state', remark: '合同提醒状态', entries: same('未提醒', '已提醒') },
  { name: 'service_type', remark: '服务方式', entries: same('劳务派遣', '人事代理', '劳务外包', '业务外包') },
  {
    name: 'proration_rule',
    remark: '不满月工资计算方式',
    entries: [
      ['按日历天数', 'calendar'],
      ['按21.75天计薪', 'workdays'],
    ],
  },
  {
    // What happens to deductions a month's pay cannot cover (issue 20 item 5): carried to the next month or advanced.
    name: 'arrears_rule',
    remark: '欠款处理方式',
    entries: [
      ['下月扣回', 'carry'],
      ['单位垫付', 'advance'],
    ],
  },
  { name: 'fee_type', remark: '服务费类型', entries: same('按人头', '按比例', '固定金额') },
  {
    name: 'dispatch_company',
    remark: '派遣单位（值为工伤保险单位比例）',
    entries: [
      ['北京华派人力资源有限公司', '0.004'],
      ['北京众信劳务派遣有限公司', '0.002'],
    ],
  },
  // 专项附加扣除标准 (taxDeductionCap.ts): the rules the checker knows, and the rent's city categories (国发〔2018〕41号 art.20)
  { name: 'bank_file_type', remark: '银行模板的文件类型', entries: Object.entries(BANK_FILE_TYPES).map(([value, label]): [string, string] => [label, value]) },
  { name: 'bank_file_encoding', remark: '银行模板的文件编码', entries: Object.entries(BANK_FILE_ENCODINGS).map(([value, label]): [string, string] => [label, value]) },
  // 社保模板 (issue 24 item 3): who a change list goes to, and its file types
  { name: 'si_change_target', remark: '社保模板的对象', entries: Object.entries(SI_CHANGE_TARGETS).map(([value, label]): [string, string] => [label, value]) },
  { name: 'si_change_file_type', remark: '社保模板的文件类型', entries: Object.entries(SI_CHANGE_FILE_TYPES).map(([value, label]): [string, string] => [label, value]) },
  { name: 'tax_deduction_rule', remark: '专项附加扣除标准的扣除项目', entries: Object.entries(TAX_DEDUCTION_RULES).map(([value, label]): [string, string] => [label, value]) },
  {
    name: 'housing_rent_city_tier',
    remark: '住房租金城市类别',
    entries: [
      ['第1类：直辖市、省会（首府）城市、计划单列市及国务院确定的其他城市', '1'],
      ['第2类：市辖区户籍人口超过100万的城市', '2'],
      ['第3类：市辖区户籍人口不超过100万的城市', '3'],
    ],
  },
  // 结算条款 and 增值税计税方式 (Month close I, issue 22; settlementTerms.ts): stored values are the codes the generator reads
  {
    name: 'settlement_fee_mode',
    remark: '结算条款的服务费方式',
    entries: [
      ['按人头（元/人/月）', 'PER_HEAD'],
      ['按应发工资比例', 'PCT_WAGE'],
      ['按应发工资及单位社保公积金比例', 'PCT_TOTAL'],
      ['固定金额（元/月）', 'LUMP_SUM'],
    ],
  },
  { name: 'settlement_fee_tax_mode', remark: '结算条款的服务费含税方式', entries: [['含税', 'INCLUSIVE'], ['不含税（另加税金）', 'EXCLUSIVE']] },
  { name: 'settlement_si_lag', remark: '结算条款的社保收取月份', entries: [['当月收当月', '0'], ['当月收下月', '1']] },
  { name: 'settlement_disabled_share', remark: '结算条款的残保金分摊方式', entries: [['不分摊', 'NONE'], ['按人头', 'PER_HEAD'], ['按应发工资比例', 'PCT_WAGE']] },
  { name: 'vat_regime', remark: '派遣单位的增值税计税方式', entries: [['差额征税（5%征收率）', 'DIFF_5'], ['一般计税（6%）', 'GENERAL_6'], ['小规模纳税人', 'SMALL']] },
  { name: 'bennong', remark: '本农费率（北京2025-07，请与社保经办机构核对）', entries: rateEntries() },
  { name: 'bencheng', remark: '本城费率（北京2025-07，请与社保经办机构核对）', entries: rateEntries() },
  { name: 'waicheng', remark: '外城费率（北京2025-07，请与社保经办机构核对）', entries: rateEntries() },
  { name: 'wainong', remark: '外农费率（北京2025-07，请与社保经办机构核对）', entries: rateEntries() },
  {
    name: 'bennong_24',
    remark: '本农（养24号文）费率：养老基数与比例规则待经办机构确认',
    entries: rateEntries(),
  },  // The previous Beijing year (2024-07 to 2025-06) beside it, so months before 2025-07 can be calculated (P4).
  ...Object.values(RATE_DICTIONARIES).map(
    (name): DictSeed => ({ name: `${name}@2024-07`, remark: `${name} 费率（北京2024-07至2025-06，请与社保经办机构核对）`, entries: rateEntries(BEIJING_2024_07) }),
  ),
];
