import { defineResource, type FieldDef } from '../resource/types.ts';

const BASIC = '基本信息';
const BANK = '开户与开票';
const INSURANCE = '社保基数';

/** A required base (yuan) of a company: the spec's message is 请输入<label>. */
const base = (name: string, label: string, required = true): FieldDef => ({
  name,
  kind: 'money',
  label,
  required: required ? `请输入${label}` : undefined,
  list: false,
  section: INSURANCE,
});

/**
 * Client companies (派遣用工单位). `dispatchCompany` stores the *label* of a `dispatch_company` dictionary
 * entry (the entry's value is the work-injury ratio, so it cannot identify the entry); the server checks
 * the label and snapshots the ratio into `gongshangRatioCompany`. `deptId` is the owning department for
 * data scope (set by the server from the creating user).
 */
export const companyResource = defineResource({
  name: 'accountsCompany',
  table: 'accounts_company',
  permission: 'ACCOUNTSCOMPANY',
  label: '单位',
  labels: {
    en: {
      _label: 'Company', id: 'ID', companyName: 'Company name', license: 'Business licence no.', serviceType: 'Service type', settleType: 'Settlement method',
      settleDate: 'Settlement day', feeType: 'Fee type', fee: 'Service fee', disabledPay: 'Disability employment levy', dispatchCompany: 'Dispatch company',
      prorationRule: 'Part-month pay', arrearsRule: 'Unrecovered deductions', contact: 'Contact', job: 'Job title', phone: 'Phone', email: 'Email',
      bamk: 'Bank', bankCard: 'Bank account', bankAddress: 'Bank address', bankNumber: 'Bank code', sendInvoice: 'Invoicing method',
      receiveInvoice: 'Invoice receipt method', dispatchInvoice: 'Dispatch invoice', receiptType: 'Receipt method', gjjBase: 'Housing fund base',
      yanglaoBase: 'Pension base', yilaoBase: 'Medical insurance base', yilaoBaseSelf: 'Medical base (personal)', shiyeBase: 'Unemployment base',
      gongshangBase: 'Work injury base', shengyuBase: 'Maternity base', gongshangRatioCompany: 'Work injury rate (employer)', deptId: 'Department',
      createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Empresa', id: 'ID', companyName: 'Nombre de la empresa', license: 'N.º de licencia comercial', serviceType: 'Tipo de servicio',
      settleType: 'Forma de liquidación', settleDate: 'Día de liquidación', feeType: 'Tipo de tarifa', fee: 'Tarifa de servicio',
      disabledPay: 'Contribución por discapacidad', dispatchCompany: 'Empresa de cesión', prorationRule: 'Pago de mes parcial',
      arrearsRule: 'Deducciones no cubiertas', contact: 'Contacto', job: 'Cargo', phone: 'Teléfono', email: 'Correo', bamk: 'Banco',
      bankCard: 'Cuenta bancaria', bankAddress: 'Dirección del banco', bankNumber: 'Código bancario', sendInvoice: 'Forma de facturación',
      receiveInvoice: 'Forma de recepción de facturas', dispatchInvoice: 'Factura de cesión', receiptType: 'Forma de comprobante',
      gjjBase: 'Base del fondo de vivienda', yanglaoBase: 'Base de pensión', yilaoBase: 'Base de seguro médico', yilaoBaseSelf: 'Base médica (personal)',
      shiyeBase: 'Base de desempleo', gongshangBase: 'Base de accidentes laborales', shengyuBase: 'Base de maternidad',
      gongshangRatioCompany: 'Tasa de accidentes (empresa)', deptId: 'Departamento', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '取引先', id: 'ID', companyName: '取引先名', license: '事業許可番号', serviceType: 'サービス形態', settleType: '精算方法', settleDate: '精算日', feeType: '手数料種別',
      fee: 'サービス料', disabledPay: '障害者雇用納付金', dispatchCompany: '派遣元会社', prorationRule: '月途中の給与計算', arrearsRule: '控除不足額の処理', contact: '担当者', job: '役職',
      phone: '電話', email: 'メール', bamk: '取引銀行', bankCard: '銀行口座番号', bankAddress: '銀行住所', bankNumber: '銀行コード', sendInvoice: '請求書発行方法', receiveInvoice: '請求書受領方法',
      dispatchInvoice: '派遣請求書', receiptType: '受領書方式', gjjBase: '住宅積立金基数', yanglaoBase: '年金保険基数', yilaoBase: '医療保険基数', yilaoBaseSelf: '医療保険個人基数',
      shiyeBase: '失業保険基数', gongshangBase: '労災保険基数', shengyuBase: '出産保険基数', gongshangRatioCompany: '労災保険会社負担率', deptId: '所属部門', createTime: '作成日',
      updateTime: '更新日',
    },
  },
  dialogWidth: 800,
  unique: [{ fields: ['companyName'], message: '单位名称已存在' }],
  excel: { fileName: '单位信息', templateName: '单位信息模板', importKey: ['companyName'] },
  searchMode: 'filters',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, filter: 'eq', search: true, width: 80 },
    { name: 'companyName', kind: 'string', label: '单位名称', required: '请输入单位名称', maxLength: 100, filter: 'like', search: true, section: BASIC, width: 200 },
    { name: 'license', kind: 'string', label: '营业执照号', maxLength: 50, list: false, section: BASIC },
    { name: 'serviceType', kind: 'dict', dict: 'service_type', label: '服务方式', required: '请选择服务方式', filter: 'eq', search: true, section: BASIC, width: 120 },
    { name: 'settleType', kind: 'string', label: '结算方式', maxLength: 50, section: BASIC, width: 120 },
    { name: 'settleDate', kind: 'string', label: '结算日', maxLength: 50, section: BASIC, width: 100 },
    { name: 'feeType', kind: 'dict', dict: 'fee_type', label: '服务费类型', required: '请选择服务费类型', section: BASIC, width: 130 },
    { name: 'fee', kind: 'money', label: '服务费', required: '请输入服务费', list: false, section: BASIC },
    { name: 'disabledPay', kind: 'money', label: '残疾人就业保障金', required: '请输入残疾人缴费', list: false, section: BASIC },
    { name: 'dispatchCompany', kind: 'string', label: '派遣单位', required: '请选择派遣单位', maxLength: 100, section: BASIC, width: 180 },
    // How a joiner's or leaver's part month is paid (P2): calendar days of the month, or working days over 21.75.
    { name: 'prorationRule', kind: 'dict', dict: 'proration_rule', label: '不满月工资计算', defaultValue: 'calendar', list: false, section: BASIC },
    // What a month's pay cannot cover (issue 20 item 5, PB4): deducted first from the next month's pay (下月扣回), or
    // advanced by the company (单位垫付). The personal 五险一金 is due either way (社会保险法 art.60).
    { name: 'arrearsRule', kind: 'dict', dict: 'arrears_rule', label: '欠款处理方式', defaultValue: 'carry', list: false, section: BASIC },
    { name: 'contact', kind: 'string', label: '联系人', maxLength: 50, filter: 'like', search: true, section: BASIC, width: 100 },
    { name: 'job', kind: 'string', label: '职务', maxLength: 50, list: false, section: BASIC },
    { name: 'phone', kind: 'phone', label: '电话', filter: 'like', search: true, section: BASIC, width: 130 },
    { name: 'email', kind: 'email', label: '邮箱', list: false, section: BASIC },
    { name: 'bamk', kind: 'string', label: '开户银行', maxLength: 100, list: false, section: BANK },
    { name: 'bankCard', kind: 'string', label: '银行账号', maxLength: 50, list: false, section: BANK },
    { name: 'bankAddress', kind: 'string', label: '开户行地址', maxLength: 200, list: false, section: BANK },
    { name: 'bankNumber', kind: 'string', label: '联行号', maxLength: 50, list: false, section: BANK },
    { name: 'sendInvoice', kind: 'string', label: '开票方式', maxLength: 50, list: false, section: BANK },
    { name: 'receiveInvoice', kind: 'string', label: '收票方式', maxLength: 50, list: false, section: BANK },
    { name: 'dispatchInvoice', kind: 'string', label: '派遣发票', maxLength: 50, list: false, section: BANK },
    { name: 'receiptType', kind: 'string', label: '回单方式', maxLength: 50, list: false, section: BANK },
    base('gjjBase', '公积金基数'),
    base('yanglaoBase', '养老保险基数'),
    base('yilaoBase', '医疗保险基数'),
    base('yilaoBaseSelf', '医疗保险个人基数', false),
    base('shiyeBase', '失业保险基数'),
    base('gongshangBase', '工伤保险基数'),
    base('shengyuBase', '生育保险基数'),
    // Snapshot of the dispatch company's work-injury ratio (dispatch_company dictionary), set by the server.
    { name: 'gongshangRatioCompany', kind: 'ratio', label: '工伤保险单位比例', readOnly: true, list: false, excel: true, section: INSURANCE },
    { name: 'deptId', column: 'dept_id', kind: 'int', label: '所属部门', readOnly: true, list: false, detail: false, excel: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, width: 170 },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false, detail: false },
  ],
});
