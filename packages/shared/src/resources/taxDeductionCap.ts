import { defineResource } from '../resource/types.ts';

/**
 * Statutory limits of 专项附加扣除 and 其他扣除 as dated rows (findings PB1, PB2): each rule's amount applies from
 * `validFrom` until a later row of the same rule, so a change of the law is a new row, not a release. The
 * entries of 专项附加扣除 (modules/payroll/deductionCaps.ts checks them) refuse an amount over the rule in force in
 * their month. Seeded by migration 0024 with the rules since 2019:
 * - 国发〔2018〕41号《个人所得税专项附加扣除暂行办法》: 子女教育 1,000, 继续教育 400 a month (学历) or 3,600 in the year a
 *   职业资格 certificate is obtained, 住房贷款利息 1,000, 住房租金 1,500 / 1,100 / 800 by city, 赡养老人 2,000 (an only
 *   child) or at most 1,000 own share; 住房贷款利息 and 住房租金 not both; 大病医疗 only at the annual reconciliation;
 * - 国发〔2022〕8号: 3岁以下婴幼儿照护 1,000 per child from 2022-01;
 * - 国发〔2023〕13号: 子女教育 and 婴幼儿照护 2,000 per child, 赡养老人 3,000 (own share at most 1,500) from 2023-01;
 * - 财税〔2017〕39号: 商业健康险 2,400 a year, 200 a month;
 * - 财政部 税务总局公告2022年第34号: 个人养老金 12,000 a year.
 */

/** The rules a row can hold (the `tax_deduction_rule` dictionary's values, with its labels). */
export const TAX_DEDUCTION_RULES = {
  childEducation: '子女教育（每名子女每月）',
  infantCare: '3岁以下婴幼儿照护（每名子女每月）',
  elderlySupportOnlyChild: '赡养老人（独生子女，每月）',
  elderlySupportShared: '赡养老人（非独生子女本人分摊，每月）',
  housingLoanInterest: '住房贷款利息（每月）',
  housingRentTier1: '住房租金（第1类城市，每月）',
  housingRentTier2: '住房租金（第2类城市，每月）',
  housingRentTier3: '住房租金（第3类城市，每月）',
  continuingEducationDegree: '继续教育（学历，每月）',
  continuingEducationCertificate: '继续教育（职业资格，取得证书当年）',
  healthInsurance: '商业健康险（每月）',
  privatePension: '个人养老金（每年）',
} as const;
export type TaxDeductionRule = keyof typeof TAX_DEDUCTION_RULES;

export const taxDeductionCapResource = defineResource({
  name: 'taxDeductionCap',
  table: 'accounts_tax_deduction_cap',
  permission: 'TAXDEDUCTIONCAP',
  label: '专项附加扣除标准',
  labels: {
    en: {
      _label: 'Deduction limits', id: 'ID', rule: 'Deduction item', validFrom: 'Valid from', amount: 'Limit', basis: 'Legal basis', createTime: 'Created',
      updateTime: 'Updated',
    },
    es: {
      _label: 'Límites de deducción', id: 'ID', rule: 'Concepto de deducción', validFrom: 'Vigente desde', amount: 'Límite', basis: 'Base legal',
      createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: { _label: '控除基準', id: 'ID', rule: '控除項目', validFrom: '適用開始月', amount: '控除基準額', basis: '根拠法令', createTime: '作成日時', updateTime: '更新日時' },
  },
  dialogWidth: 550,
  searchMode: 'filters',
  defaultSort: [
    ['rule', 'asc'],
    ['validFrom', 'desc'],
  ],
  unique: [{ fields: ['rule', 'validFrom'], message: '该扣除项目在该月份已有标准' }],
  menu: { parent: 'salary', path: 'taxDeductionCap', icon: 'SafetyCertificateOutlined', titles: { en: 'Deduction limits', es: 'Límites de deducción', ja: '控除基準' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'rule', kind: 'dict', dict: 'tax_deduction_rule', label: '扣除项目', required: '请选择扣除项目', filter: 'eq', search: true, width: 280 },
    { name: 'validFrom', kind: 'month', label: '生效月份', required: '请选择生效月份', filter: 'eq', search: true, width: 100 },
    { name: 'amount', kind: 'money', label: '扣除标准', required: '请输入扣除标准', min: 0, max: 1_000_000, width: 110 },
    { name: 'basis', kind: 'string', label: '政策依据', maxLength: 255, width: 280 },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
