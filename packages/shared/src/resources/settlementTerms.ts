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
  labels: {
    en: {
      _label: 'Settlement terms', id: 'ID', companyId: 'Company', validFrom: 'Valid from', feeMode: 'Fee mode', feeAmount: 'Fee amount', feeRate: 'Fee rate',
      feeTaxMode: 'Fee VAT treatment', siBillingLag: 'SI billing month', disabledShareMode: 'Disability levy share',
      disabledShareAmount: 'Disability levy per head', disabledShareRate: 'Disability levy rate', unionFeeRatio: 'Union fee ratio',
      perHeadItems: 'Per-head items', remark: 'Remarks', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Condiciones de liquidación', id: 'ID', companyId: 'Empresa', validFrom: 'Vigente desde', feeMode: 'Modalidad de la tarifa',
      feeAmount: 'Importe de la tarifa', feeRate: 'Porcentaje de la tarifa', feeTaxMode: 'IVA de la tarifa',
      siBillingLag: 'Mes de cobro de la seguridad social', disabledShareMode: 'Reparto de la cuota por discapacidad',
      disabledShareAmount: 'Cuota por discapacidad por persona', disabledShareRate: 'Porcentaje de la cuota por discapacidad',
      unionFeeRatio: 'Proporción de cuota sindical', perHeadItems: 'Conceptos por persona', remark: 'Observaciones', createTime: 'Creado',
      updateTime: 'Actualizado',
    },
    ja: {
      _label: '精算条件', id: 'ID', companyId: '会社', validFrom: '適用開始月', feeMode: 'サービス料方式', feeAmount: 'サービス料金額', feeRate: 'サービス料率', feeTaxMode: 'サービス料の税込区分',
      siBillingLag: '社会保険の請求月', disabledShareMode: '障害者雇用保障金の按分', disabledShareAmount: '障害者保障金（1人当たり）', disabledShareRate: '障害者保障金の按分率',
      unionFeeRatio: '労働組合経費の比率', perHeadItems: '1人当たり請求項目', remark: '備考', createTime: '作成日', updateTime: '更新日',
    },
  },
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
  labels: {
    en: {
      _label: 'VAT regime', id: 'ID', dispatchCompany: 'Dispatch company', validFrom: 'Valid from', regime: 'Regime', rate: 'Rate', surtaxRatio: 'Surtax ratio',
      basis: 'Legal basis', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Régimen de IVA', id: 'ID', dispatchCompany: 'Empresa de cesión', validFrom: 'Vigente desde', regime: 'Régimen', rate: 'Tipo',
      surtaxRatio: 'Proporción de recargos', basis: 'Base legal', createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: {
      _label: '増値税の課税方式', id: 'ID', dispatchCompany: '派遣元', validFrom: '適用開始月', regime: '課税方式', rate: '税率/徴収率', surtaxRatio: '付加税費の比率', basis: '根拠法令',
      createTime: '作成日', updateTime: '更新日',
    },
  },
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
