import { defineResource } from '../resource/types.ts';

/**
 * Month close I (issue 22; month-close.md §B1): how a client company is billed, as dated rows. The terms whose
 * `validFrom` is the latest month not after the statement month apply; a change of contract is a new row, so
 * every earlier statement can be regenerated as it was. Edited in the 结算条款 section of the company dialog and
 * listed with their history on their own screen. Each statement keeps a copy of the terms it used.
 */
export const settlementTermsResource = defineResource({
  name: 'settlementTerms',
  table: 'accounts_settlement_terms',
  permission: 'SETTLEMENTTERMS',
  label: '结算条款',
  dialogWidth: 750,
  searchMode: 'filters',
  defaultSort: [
    ['companyId', 'asc'],
    ['validFrom', 'desc'],
  ],
  unique: [{ fields: ['companyId', 'validFrom'], message: '该单位在该月份已有结算条款' }],
  menu: { parent: 'salary', path: 'settlementTerms', icon: 'AuditOutlined', titles: { en: 'Settlement terms', es: 'Condiciones de liquidación', ja: '精算条件' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'companyId', kind: 'ref', label: '单位', ref: { resource: 'accountsCompany', labelField: 'companyName' }, required: '请选择单位', filter: 'eq', search: true, width: 200 },
    { name: 'validFrom', kind: 'month', label: '生效月份', required: '请选择生效月份', filter: 'eq', search: true, width: 100 },
    { name: 'feeMode', kind: 'dict', dict: 'settlement_fee_mode', label: '服务费方式', required: '请选择服务费方式', defaultValue: 'PER_HEAD', width: 150 },
    // PER_HEAD: yuan per person and month; LUMP_SUM: yuan per month
    { name: 'feeAmount', kind: 'money', label: '服务费金额', min: 0, max: 100_000_000, defaultValue: 0, width: 110 },
    // PCT_WAGE / PCT_TOTAL: 0.05 = 5 %
    { name: 'feeRate', kind: 'ratio', label: '服务费比例', defaultValue: 0, width: 100 },
    { name: 'feeTaxMode', kind: 'dict', dict: 'settlement_fee_tax_mode', label: '服务费含税方式', required: '请选择服务费含税方式', defaultValue: 'INCLUSIVE', width: 150 },
    { name: 'siBillingLag', kind: 'dict', dict: 'settlement_si_lag', label: '社保收取月份', required: '请选择社保收取月份', defaultValue: '0', width: 120 },
    { name: 'disabledShareMode', kind: 'dict', dict: 'settlement_disabled_share', label: '残保金分摊', required: '请选择残保金分摊方式', defaultValue: 'NONE', width: 120 },
    { name: 'disabledShareAmount', kind: 'money', label: '残保金每人金额', min: 0, max: 1_000_000, defaultValue: 0, list: false },
    { name: 'disabledShareRate', kind: 'ratio', label: '残保金分摊比例', defaultValue: 0, list: false },
    // 工会法 art.43: 2 % of the wage bill, or none
    { name: 'unionFeeRatio', kind: 'ratio', label: '工会经费比例', defaultValue: 0, width: 110 },
    // 商保:30; 体检:15.50 — any number of named per-head amounts (yuan per person and month)
    { name: 'perHeadItems', kind: 'string', label: '按人头收费项目', maxLength: 500, width: 220, span: 24 },
    { name: 'remark', kind: 'string', label: '备注', maxLength: 255, list: false, span: 24 },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});

/**
 * The VAT regime of a dispatch entity (the `dispatch_company` dictionary's label) from a month on. Nothing is
 * hard-coded: whether 差额征税 still applies to labour dispatch in 2026 is disputed (month-close.md §0.1), so the
 * operator chooses and dates it; each statement records the regime, rate and surtax it used.
 */
export const vatRegimeResource = defineResource({
  name: 'vatRegime',
  table: 'accounts_vat_regime',
  permission: 'VATREGIME',
  label: '增值税计税方式',
  dialogWidth: 550,
  searchMode: 'filters',
  defaultSort: [
    ['dispatchCompany', 'asc'],
    ['validFrom', 'desc'],
  ],
  unique: [{ fields: ['dispatchCompany', 'validFrom'], message: '该派遣单位在该月份已有计税方式' }],
  menu: { parent: 'salary', path: 'vatRegime', icon: 'PercentageOutlined', titles: { en: 'VAT regimes', es: 'Régimen de IVA', ja: '増値税の課税方式' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', required: '请选择派遣单位', maxLength: 100, filter: 'eq', search: true, width: 220 },
    { name: 'validFrom', kind: 'month', label: '生效月份', required: '请选择生效月份', filter: 'eq', search: true, width: 100 },
    { name: 'regime', kind: 'dict', dict: 'vat_regime', label: '计税方式', required: '请选择计税方式', width: 160 },
    { name: 'rate', kind: 'ratio', label: '税率/征收率', required: '请输入税率', width: 110 },
    { name: 'surtaxRatio', kind: 'ratio', label: '附加税费比例', required: '请输入附加税费比例', defaultValue: 0.12, width: 120 },
    { name: 'basis', kind: 'string', label: '政策依据', maxLength: 255, width: 260 },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
