import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * 专项附加扣除 and 其他扣除 by category, per worker, withholding agent (派遣单位) and month (issue 10 item 6), as
 * the worker declared them to the tax office (个人所得税 app) and the tax client exports them, or as entered.
 * When a month has a row here, the monthly calculation uses its sums instead of the staff record's single
 * 专项附加扣除 amount:
 * - 专项附加扣除 = 子女教育 + 继续教育 + 住房贷款利息 + 住房租金 + 赡养老人 + 3岁以下婴幼儿照护. 大病医疗 is kept for the
 *   record only: it is deducted in the annual reconciliation (汇算清缴), never in the monthly withholding.
 * - 其他扣除 = 商业健康险 + 个人养老金.
 * Each amount is held to the statutory limit in force in its month (专项附加扣除标准, taxDeductionCap.ts; checked by
 * modules/payroll/deductionCaps.ts), which depends on the number of children, whether the worker is an only child,
 * the city category of the rent and whether a 职业资格 certificate was obtained this month: those facts are fields of
 * the row (migration 0024). Money is yuan on the wire, fen stored.
 */

/** The categories that make up the month's 专项附加扣除 in the withholding (大病医疗 is not one of them). */
export const SPECIAL_ADDITIONAL_CATEGORIES = ['childEducation', 'continuingEducation', 'housingLoanInterest', 'housingRent', 'elderlySupport', 'infantCare'] as const;
/** The categories of 其他扣除. */
export const OTHER_DEDUCTION_CATEGORIES = ['healthInsurance', 'privatePension'] as const;
const money = (name: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, kind: 'money', label, defaultValue: 0, max: 100_000, ...extra });

export const taxDeductionResource = defineResource({
  name: 'taxDeduction',
  table: 'accounts_tax_deduction',
  // Salary data: the monthly-salary codes guard it (as 期初累计数据).
  permission: 'ACCOUNTSSALARY',
  label: '专项附加扣除',
  labels: {
    en: {
      _label: 'Tax deductions', id: 'ID', dispatchCompany: 'Dispatch entity', staffName: 'Name', idCard: 'ID card no.', month: 'Month',
      childEducation: 'Children\'s education', continuingEducation: 'Continuing education', housingLoanInterest: 'Housing loan interest',
      housingRent: 'Housing rent', elderlySupport: 'Elderly support', infantCare: 'Care of infants under 3',
      seriousIllness: 'Serious illness (deducted at the annual reconciliation)', healthInsurance: 'Commercial health insurance',
      privatePension: 'Private pension', remark: 'Remark', createTime: 'Created', updateTime: 'Updated', childEducationChildren: 'Children (education)',
      certificateThisMonth: 'Vocational certificate obtained this month', housingRentCityTier: 'City category (rent)',
      elderlyOnlyChild: 'Only child (elderly support)', infantCareChildren: 'Children (infant care)',
    },
    es: {
      _label: 'Deducciones fiscales', id: 'ID', dispatchCompany: 'Entidad de cesión', staffName: 'Nombre', idCard: 'N.º de documento', month: 'Mes',
      childEducation: 'Educación de los hijos', continuingEducation: 'Formación continua', housingLoanInterest: 'Intereses hipotecarios',
      housingRent: 'Alquiler de vivienda', elderlySupport: 'Manutención de mayores', infantCare: 'Cuidado de menores de 3 años',
      seriousIllness: 'Enfermedad grave (se deduce en la declaración anual)', healthInsurance: 'Seguro médico privado', privatePension: 'Pensión privada',
      remark: 'Observaciones', createTime: 'Creado', updateTime: 'Actualizado', childEducationChildren: 'Hijos (educación)',
      certificateThisMonth: 'Certificado profesional obtenido este mes', housingRentCityTier: 'Categoría de ciudad (alquiler)',
      elderlyOnlyChild: 'Hijo único (manutención de mayores)', infantCareChildren: 'Hijos (cuidado infantil)',
    },
    ja: {
      _label: '特別追加控除', id: 'ID', dispatchCompany: '派遣元', staffName: '氏名', idCard: '身分証番号', month: '月', childEducation: '子どもの教育', continuingEducation: '継続教育',
      housingLoanInterest: '住宅ローン利息', housingRent: '住宅家賃', elderlySupport: '高齢者扶養', infantCare: '3歳未満乳幼児養育', seriousIllness: '重大疾病医療（年次精算で控除）',
      healthInsurance: '商業健康保険', privatePension: '個人年金', remark: '備考', createTime: '作成日', updateTime: '更新日', childEducationChildren: '子の人数（子女教育）',
      certificateThisMonth: '今月職業資格証書を取得', housingRentCityTier: '都市区分（住宅賃料）', elderlyOnlyChild: '一人っ子（高齢者扶養）', infantCareChildren: '子の人数（乳幼児養育）',
    },
  },
  dialogWidth: 800,
  searchMode: 'filters',
  unique: [{ fields: ['dispatchCompany', 'idCard', 'month'], message: '该员工在该派遣单位本月已有扣除数据' }],
  excel: { fileName: '专项附加扣除', templateName: '专项附加扣除模板', importKey: ['dispatchCompany', 'idCard', 'month'] },
  menu: { parent: 'salary', path: 'taxDeduction', icon: 'AuditOutlined', titles: { en: 'Tax deductions', es: 'Deducciones fiscales', ja: '特別追加控除' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', required: '请输入派遣单位（扣缴义务人）', maxLength: 100, filter: 'like', search: true, width: 180 },
    { name: 'staffName', kind: 'string', label: '姓名', maxLength: 50, filter: 'like', search: true },
    { name: 'idCard', kind: 'idCard', label: '身份证号', required: '请输入身份证号', filter: 'like', search: true, width: 180 },
    { name: 'month', kind: 'month', label: '月份', required: '请选择月份', filter: 'eq', search: true },
    money('childEducation', '子女教育'),
    // empty: one child (the rule is per child and month)
    { name: 'childEducationChildren', kind: 'int', label: '子女教育子女数', min: 0, max: 20, list: false },
    money('continuingEducation', '继续教育'),
    // 继续教育 of a 职业资格 certificate: 3,600 once, in the year the certificate is obtained (国发〔2018〕41号 art.8)
    { name: 'certificateThisMonth', kind: 'bool', label: '本月取得职业资格证书', defaultValue: false, list: false },
    money('housingLoanInterest', '住房贷款利息'),
    money('housingRent', '住房租金'),
    { name: 'housingRentCityTier', kind: 'dict', dict: 'housing_rent_city_tier', label: '住房租金城市类别', defaultValue: '1', list: false },
    money('elderlySupport', '赡养老人'),
    { name: 'elderlyOnlyChild', kind: 'bool', label: '赡养老人为独生子女', defaultValue: true, list: false },
    money('infantCare', '3岁以下婴幼儿照护'),
    { name: 'infantCareChildren', kind: 'int', label: '婴幼儿照护子女数', min: 0, max: 20, list: false },
    money('seriousIllness', '大病医疗（汇算清缴时扣除）', { list: false }),
    money('healthInsurance', '商业健康险'),
    money('privatePension', '个人养老金'),
    { name: 'remark', kind: 'string', label: '备注', maxLength: 255, list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
