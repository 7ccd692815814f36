import { defineResource } from '../resource/types.ts';

/**
 * Year-to-date income tax figures a withholding agent (派遣单位) brings from before it used this product
 * (期初累计数据, finding P3): a company that starts mid-year enters, per worker and tax year, what its earlier
 * payroll withheld up to `throughMonth`. The cumulative withholding then continues from these figures, and
 * salary rows of months up to `throughMonth` are not counted again. Money is yuan on the wire, fen stored.
 */
export const taxOpeningResource = defineResource({
  name: 'taxOpening',
  table: 'accounts_tax_opening',
  // Salary data: the monthly-salary codes guard it.
  permission: 'ACCOUNTSSALARY',
  label: '期初累计数据',
  labels: {
    en: {
      _label: 'Opening tax balance', id: 'ID', dispatchCompany: 'Dispatch company', staffName: 'Name', idCard: 'ID card', taxYear: 'Tax year',
      throughMonth: 'Through month', months: 'Months employed', cumulativeIncome: 'Cumulative income', cumulativeExemptIncome: 'Cumulative exempt income',
      cumulativeSocial: 'Cumulative special deductions', cumulativeSpecialAdditional: 'Cumulative special additional deductions',
      cumulativeOtherDeduct: 'Cumulative other deductions', cumulativeTaxWithheld: 'Cumulative tax withheld', remark: 'Remark', createTime: 'Created',
      updateTime: 'Updated',
    },
    es: {
      _label: 'Saldo fiscal inicial', id: 'ID', dispatchCompany: 'Empresa de cesión', staffName: 'Nombre', idCard: 'Documento de identidad',
      taxYear: 'Año fiscal', throughMonth: 'Hasta el mes', months: 'Meses trabajados', cumulativeIncome: 'Ingresos acumulados',
      cumulativeExemptIncome: 'Ingresos exentos acumulados', cumulativeSocial: 'Deducciones especiales acumuladas',
      cumulativeSpecialAdditional: 'Deducciones adicionales acumuladas', cumulativeOtherDeduct: 'Otras deducciones acumuladas',
      cumulativeTaxWithheld: 'Impuesto retenido acumulado', remark: 'Observaciones', createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: {
      _label: '期首累計データ', id: 'ID', dispatchCompany: '派遣元', staffName: '氏名', idCard: '身分証番号', taxYear: '課税年度', throughMonth: '対象月まで', months: '累計在職月数',
      cumulativeIncome: '累計収入', cumulativeExemptIncome: '累計非課税収入', cumulativeSocial: '累計特定控除', cumulativeSpecialAdditional: '累計特定付加控除',
      cumulativeOtherDeduct: '累計その他控除', cumulativeTaxWithheld: '累計源泉徴収税額', remark: '備考', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 800,
  searchMode: 'filters',
  unique: [{ fields: ['dispatchCompany', 'idCard', 'taxYear'], message: '该员工在该派遣单位本年度已有期初数据' }],
  excel: { fileName: '期初累计数据', templateName: '期初累计数据模板', importKey: ['dispatchCompany', 'idCard', 'taxYear'] },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', required: '请输入派遣单位（扣缴义务人）', maxLength: 100, filter: 'like', search: true, width: 180 },
    { name: 'staffName', kind: 'string', label: '姓名', maxLength: 50, filter: 'like', search: true },
    { name: 'idCard', kind: 'idCard', label: '身份证号', required: '请输入身份证号', filter: 'like', search: true, width: 180 },
    { name: 'taxYear', kind: 'int', label: '纳税年度', required: '请输入纳税年度', min: 2019, max: 2099, filter: 'eq', search: true },
    { name: 'throughMonth', kind: 'month', label: '截至月份', required: '请选择截至月份' },
    { name: 'months', kind: 'int', label: '累计任职受雇月份数', required: '请输入累计任职受雇月份数', min: 1, max: 12 },
    { name: 'cumulativeIncome', kind: 'money', label: '累计收入', required: '请输入累计收入' },
    { name: 'cumulativeExemptIncome', kind: 'money', label: '累计免税收入', defaultValue: 0 },
    { name: 'cumulativeSocial', kind: 'money', label: '累计专项扣除', defaultValue: 0 },
    { name: 'cumulativeSpecialAdditional', kind: 'money', label: '累计专项附加扣除', defaultValue: 0 },
    { name: 'cumulativeOtherDeduct', kind: 'money', label: '累计其他扣除', defaultValue: 0 },
    { name: 'cumulativeTaxWithheld', kind: 'money', label: '累计已预缴税额', required: '请输入累计已预缴税额' },
    { name: 'remark', kind: 'string', label: '备注', maxLength: 255, list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
