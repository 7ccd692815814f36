import { defineResource } from '../resource/types.ts';

/**
 * Staff overtime pay and deductions per month (员工加班扣款). Monthly payroll reads `jiaban` and `koukuan`
 * by company, ID card and `month` (rows of the same staff and month add up). `staffCompany` is filled by
 * the server from `staffCompanyId` when that is given.
 */
export const staffExtraResource = defineResource({
  name: 'accountsStaffExtra',
  table: 'accounts_staff_extra',
  permission: 'ACCOUNTSSTAFFEXTRA',
  label: '员工加班扣款',
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, filter: 'eq', search: true, width: 80 },
    { name: 'staffIdCard', kind: 'string', label: '身份证号', maxLength: 20, filter: 'like', search: true, width: 180 },
    { name: 'staffName', kind: 'string', label: '员工姓名', maxLength: 50, filter: 'like', search: true },
    {
      name: 'staffCompanyId',
      kind: 'ref',
      ref: { resource: 'accountsCompany', labelField: 'companyName' },
      label: '单位ID',
      filter: 'eq',
      search: true,
      list: false,
    },
    { name: 'staffCompany', kind: 'string', label: '单位名称', maxLength: 100, filter: 'like', search: true },
    { name: 'phone', kind: 'string', label: '手机号', maxLength: 20, filter: 'like', search: true },
    { name: 'month', kind: 'month', label: '月份', filter: 'eq' },
    { name: 'jiaban', kind: 'money', label: '加班费' },
    { name: 'koukuan', kind: 'money', label: '扣款' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
