import { MAINLAND_MOBILE } from '../resource/kinds.ts';
import { defineResource, type FieldDef } from '../resource/types.ts';

const PERSONAL = '个人信息';
const CONTRACT = '合同信息';
const INSURANCE = '社保信息';

const base = (name: string, label: string): FieldDef => ({ name, kind: 'money', label, required: `请输入${label}`, list: false, section: INSURANCE });
const ratio = (name: string, label: string): FieldDef => ({ name, kind: 'ratio', label, required: `请输入${label}`, list: false, section: INSURANCE });

/**
 * Dispatched staff with personal, contract and social-insurance data; the contract screens are this list
 * with contract columns and filters. Server-derived on every write: sex/born/age from the ID card,
 * companyName from companyId, contractWarn = contractEnd - 30 days when omitted (see staffDerivations.ts).
 * One ID card appears once per company.
 */
export const staffResource = defineResource({
  name: 'accountsStaff',
  table: 'accounts_staff',
  permission: 'ACCOUNTSSTAFF',
  label: '员工',
  dialogWidth: 800,
  unique: [{ fields: ['companyId', 'idCard'], message: '该单位已存在此身份证号的员工' }],
  excel: { fileName: '员工信息', templateName: '员工信息模板', importKey: ['companyId', 'idCard'] },
  searchMode: 'filters',
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false, detail: false },
    {
      name: 'companyId',
      kind: 'ref',
      ref: { resource: 'accountsCompany', labelField: 'companyName' },
      label: '所属单位',
      required: '请选择所属单位',
      filter: 'eq',
      search: true,
      list: false,
      detail: false,
      section: PERSONAL,
    },
    { name: 'staffName', kind: 'string', label: '姓名', required: '请输入员工姓名', maxLength: 50, filter: 'like', search: true, section: PERSONAL, width: 100 },
    { name: 'idCard', kind: 'idCard', label: '身份证号', required: '请输入身份证号', filter: 'like', search: true, section: PERSONAL, width: 180 },
    { name: 'companyName', kind: 'string', label: '单位名称', readOnly: true, excel: false, width: 180 },
    { name: 'sex', kind: 'dict', dict: 'sex', label: '性别', readOnly: true, excel: true, width: 60 },
    { name: 'born', kind: 'date', label: '出生日期', readOnly: true, excel: true, list: false },
    { name: 'age', kind: 'int', label: '年龄', readOnly: true, excel: true, list: false },
    { name: 'censusType', kind: 'dict', dict: 'census_type', label: '户籍类型', required: '请选择户籍类型', filter: 'eq', search: true, section: PERSONAL },
    { name: 'nation', kind: 'string', label: '民族', maxLength: 20, section: PERSONAL },
    { name: 'phone', kind: 'phone', label: '手机号', required: '请输入手机号', pattern: MAINLAND_MOBILE, filter: 'like', search: true, section: PERSONAL },
    { name: 'marriage', kind: 'dict', dict: 'marriage', label: '婚姻状况', list: false, section: PERSONAL },
    { name: 'education', kind: 'dict', dict: 'education', label: '学历', list: false, section: PERSONAL },
    { name: 'politics', kind: 'dict', dict: 'politics', label: '政治面貌', list: false, section: PERSONAL },
    { name: 'passport', kind: 'string', label: '护照号', maxLength: 30, list: false, section: PERSONAL },
    { name: 'address', kind: 'string', label: '住址', maxLength: 200, list: false, section: PERSONAL, span: 24 },
    { name: 'inductionDate', kind: 'date', label: '入职日期', required: '请选择入职日期', section: PERSONAL },
    { name: 'dept', kind: 'string', label: '部门', maxLength: 50, list: false, section: PERSONAL },
    { name: 'job', kind: 'string', label: '岗位', maxLength: 50, list: false, section: PERSONAL },
    { name: 'jobState', kind: 'dict', dict: 'job_state', label: '在职状态', required: '请选择在职状态', defaultValue: '在职', filter: 'eq', search: true, section: PERSONAL },
    { name: 'leaveDate', kind: 'date', label: '离职日期', list: false, section: PERSONAL },
    { name: 'leaveReason', kind: 'string', label: '离职原因', maxLength: 200, list: false, section: PERSONAL },
    { name: 'salary', kind: 'money', label: '基本工资', required: '请输入基本工资', section: PERSONAL },
    { name: 'salaryType', kind: 'dict', dict: 'salary_type', label: '工资类型', list: false, section: PERSONAL },
    { name: 'salaryBank', kind: 'dict', dict: 'salary_bank', label: '工资银行', list: false, section: PERSONAL },
    { name: 'bankcardNumber', kind: 'string', label: '银行卡号', maxLength: 30, list: false, section: PERSONAL },
    { name: 'taxesType', kind: 'dict', dict: 'taxes_type', label: '税种', required: '请选择税种种类', list: false, section: PERSONAL },
    { name: 'insureType', kind: 'dict', dict: 'insure_type', label: '保险种类', required: '请选择保险种类', list: false, section: PERSONAL },
    // '请输入专项附加扣除', not the spec's '请输入专项扣除': 专项扣除 is the tax term for 三险一金, which a clerk then
    // typed here and had counted twice (finding P6, issue 10 item 6)
    { name: 'deduct', kind: 'money', label: '专项附加扣除', required: '请输入专项附加扣除', list: false, section: PERSONAL },
    // 国家税务总局公告2020年第19号: a worker paid by this agent all last year with at most 60,000 yuan of income is
    // withheld with 60,000 deducted from January on; the clerk ticks it each year it applies (issue 10 item 6)
    { name: 'simplifiedDeduction', kind: 'bool', label: '适用6万元减除', defaultValue: false, list: false, excel: false, section: PERSONAL },
    { name: 'dispatchDate', kind: 'date', label: '派遣日期', required: '请选择派遣日期', section: PERSONAL },
    { name: 'contractState', kind: 'dict', dict: 'contract_state', label: '合同状态', required: '请选择合同状态', filter: 'eq', search: true, list: false, section: CONTRACT },
    { name: 'contractType', kind: 'dict', dict: 'contract_type', label: '合同类型', list: false, section: CONTRACT },
    { name: 'contractDate', kind: 'date', label: '签订日期', list: false, section: CONTRACT },
    { name: 'contractStart', kind: 'date', label: '合同开始', required: '请选择开始日期', list: false, section: CONTRACT },
    { name: 'contractEnd', kind: 'date', label: '合同结束', required: '请选择结束日期', list: false, section: CONTRACT },
    { name: 'contractWarn', kind: 'date', label: '提醒日期', required: '请选择提醒日期', list: false, section: CONTRACT },
    {
      name: 'contractWarnState',
      kind: 'dict',
      dict: 'contract_warn_state',
      label: '提醒状态',
      defaultValue: '未提醒',
      filter: 'eq',
      search: true,
      list: false,
      section: CONTRACT,
    },
    { name: 'insuredState', kind: 'dict', dict: 'insured_state', label: '参保状态', required: '请选择参保状态', list: false, section: INSURANCE },
    { name: 'insuredTime', kind: 'date', label: '参保时间', required: '请选择参保时间', list: false, section: INSURANCE },
    // Off: the rate dictionary version in force in the salary month decides the ratios (P4), and the ratios
    // below are what the dialog showed when the record was entered. On: this worker's own ratios are used.
    { name: 'ratioOverride', kind: 'bool', label: '使用个人比例', defaultValue: false, list: false, section: INSURANCE },
    base('gjjBase', '公积金基数'),
    ratio('gjjRatio', '公积金比例'),
    base('yanglaoBase', '养老保险基数'),
    ratio('yanglaoRatioCompany', '养老保险单位比例'),
    ratio('yanglaoRatioSelf', '养老保险个人比例'),
    base('yiliaoBase', '医疗保险基数'),
    base('yiliaoBaseSelf', '医疗保险个人基数'),
    ratio('yiliaoRatioCompany', '医疗保险单位比例'),
    ratio('yiliaoRatioSelf', '医疗保险个人比例'),
    base('shiyeBase', '失业保险基数'),
    ratio('shiyeRatioCompany', '失业保险单位比例'),
    ratio('shiyeRatioSelf', '失业保险个人比例'),
    base('gongshangBase', '工伤保险基数'),
    ratio('gongshangRatioCompany', '工伤保险单位比例'),
    base('shengyuBase', '生育保险基数'),
    ratio('shengyuRatioCompany', '生育保险单位比例'),
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false, detail: false },
  ],
});

/** Staff fields the contract screens show as columns (the staff list with contract columns). */
export const CONTRACT_COLUMNS = [
  'staffName',
  'idCard',
  'companyName',
  'contractState',
  'contractType',
  'contractDate',
  'contractStart',
  'contractEnd',
  'contractWarn',
  'contractWarnState',
] as const;
