import { defineResource } from '../resource/types.ts';

/**
 * Staff overtime pay and deductions per month (员工加班扣款). Monthly payroll reads `jiaban` and `koukuan`
 * by company, ID card and `month` (rows of the same staff and month add up). The person is chosen among the
 * staff (finding U7): the server refuses an ID card its company has no staff record for, and derives the company
 * (`staffCompanyId`, when one staff record has the ID card), its name, the staff name and an empty phone from the
 * records; a row needs 加班费 or 扣款 (modules/payroll/inputRules.ts).
 */
export const staffExtraResource = defineResource({
  name: 'accountsStaffExtra',
  table: 'accounts_staff_extra',
  permission: 'ACCOUNTSSTAFFEXTRA',
  label: '员工加班扣款',
  labels: {
    en: {
      _label: 'Overtime and deductions', id: 'ID', staffIdCard: 'ID card no.', staffName: 'Employee name', staffCompanyId: 'Company',
      staffCompany: 'Company name', phone: 'Mobile', month: 'Month', jiaban: 'Overtime pay', koukuan: 'Deduction', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Horas extra y deducciones', id: 'ID', staffIdCard: 'N.º de documento', staffName: 'Nombre del empleado', staffCompanyId: 'Empresa',
      staffCompany: 'Nombre de la empresa', phone: 'Móvil', month: 'Mes', jiaban: 'Horas extra', koukuan: 'Deducción', createTime: 'Fecha de creación',
      updateTime: 'Actualizado',
    },
    ja: {
      _label: '残業・控除', id: 'ID', staffIdCard: '身分証番号', staffName: '従業員名', staffCompanyId: '所属会社', staffCompany: '取引先名', phone: '携帯電話', month: '月',
      jiaban: '残業代', koukuan: '控除額', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, filter: 'eq', search: true, width: 80 },
    { name: 'staffIdCard', kind: 'string', label: '身份证号', required: '请输入身份证号', maxLength: 20, filter: 'like', search: true, width: 180 },
    { name: 'staffName', kind: 'string', label: '员工姓名', maxLength: 50, filter: 'like', search: true, width: 100 },
    {
      name: 'staffCompanyId',
      kind: 'ref',
      ref: { resource: 'accountsCompany', labelField: 'companyName' },
      label: '所属单位',
      filter: 'eq',
      search: true,
      list: false,
    },
    { name: 'staffCompany', kind: 'string', label: '单位名称', maxLength: 100, readOnly: true, filter: 'like', search: true, width: 200 },
    { name: 'phone', kind: 'string', label: '手机号', maxLength: 20, filter: 'like', search: true, width: 130 },
    { name: 'month', kind: 'month', label: '月份', required: '请选择月份', filter: 'eq', width: 90 },
    { name: 'jiaban', kind: 'money', label: '加班费' },
    { name: 'koukuan', kind: 'money', label: '扣款' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
