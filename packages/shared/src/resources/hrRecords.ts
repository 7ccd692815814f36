import { defineResource, type FieldDef } from '../resource/types.ts';

/**
 * HR records (人事档案): plain lists searched by one chosen field plus a value (spec §2), no rules beyond
 * the field types (spec §5). ID cards here are free text (records may concern people who are not staff,
 * or carry old numbers), so they are `string`, not `idCard`.
 */

const id: FieldDef = { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false, detail: false };
const createTime: FieldDef = { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false };
const updateTime: FieldDef = { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false, detail: false };
/** A text field offered in the search bar's field chooser (fuzzy match). */
const searchable = (name: string, label: string, maxLength = 100): FieldDef => ({ name, kind: 'string', label, maxLength, filter: 'like', search: true });
const name = searchable('name', '姓名', 50);
/** 18 digits must be readable in the list (findings W3: '身…' on 工资记录). */
const idCard: FieldDef = { ...searchable('idCard', '身份证号', 20), width: 180 };

/** Entry (hire) records. */
export const accEntryResource = defineResource({
  name: 'accEntry',
  table: 'acc_entry',
  permission: 'ACCENTRY',
  label: '入职记录',
  labels: {
    en: {
      _label: 'Hire records', id: 'ID', company: 'Company', dept: 'Department', name: 'Name', idCard: 'ID card no.', entryDate: 'Hire date',
      startDate: 'Start date', endDate: 'End date', isRegular: 'Made permanent', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Altas', id: 'ID', company: 'Empresa', dept: 'Departamento', name: 'Nombre', idCard: 'N.º de documento', entryDate: 'Fecha de alta',
      startDate: 'Fecha de inicio', endDate: 'Fecha de fin', isRegular: 'Contrato fijo', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '入社記録', id: 'ID', company: '取引先', dept: '部門', name: '氏名', idCard: '身分証番号', entryDate: '入社日', startDate: '開始日', endDate: '終了日', isRegular: '正社員登用',
      createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    searchable('company', '单位'),
    searchable('dept', '部门', 50),
    name,
    idCard,
    { name: 'entryDate', kind: 'date', label: '入职日期' },
    { name: 'startDate', kind: 'date', label: '开始日期' },
    { name: 'endDate', kind: 'date', label: '结束日期' },
    // free text in the spec (是 / 否 / 试用期至…), not a yes/no box (findings E4)
    { name: 'isRegular', kind: 'string', label: '是否转正', maxLength: 20 },
    createTime,
    updateTime,
  ],
});

/** Resignation (departure) records. */
export const accDepartResource = defineResource({
  name: 'accDepart',
  table: 'acc_depart',
  permission: 'ACCDEPART',
  label: '离职记录',
  labels: {
    en: {
      _label: 'Resignations', id: 'ID', company: 'Company', dept: 'Department', name: 'Name', idCard: 'ID card no.', reason: 'Reason for leaving',
      departDate: 'Leaving date', content: 'Handover', exam: 'Approver', examStatus: 'Approval status', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Bajas', id: 'ID', company: 'Empresa', dept: 'Departamento', name: 'Nombre', idCard: 'N.º de documento', reason: 'Motivo de baja',
      departDate: 'Fecha de baja', content: 'Traspaso', exam: 'Aprobador', examStatus: 'Estado de aprobación', createTime: 'Fecha de creación',
      updateTime: 'Actualizado',
    },
    ja: {
      _label: '退職記録', id: 'ID', company: '取引先', dept: '部門', name: '氏名', idCard: '身分証番号', reason: '退職理由', departDate: '退職日', content: '引き継ぎ内容', exam: '承認者',
      examStatus: '承認状況', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    searchable('company', '单位'),
    searchable('dept', '部门', 50),
    name,
    idCard,
    { name: 'reason', kind: 'string', label: '离职原因', maxLength: 500 },
    { name: 'departDate', kind: 'date', label: '离职日期' },
    { name: 'content', kind: 'text', label: '交接内容', width: 200 },
    { name: 'exam', kind: 'string', label: '审批人', maxLength: 50 },
    { name: 'examStatus', kind: 'string', label: '审批状态', maxLength: 50 },
    createTime,
    updateTime,
  ],
});

/** Intern records. */
export const accInternResource = defineResource({
  name: 'accIntern',
  table: 'acc_intern',
  permission: 'ACCINTERN',
  label: '实习记录',
  labels: {
    en: {
      _label: 'Internships', id: 'ID', name: 'Name', idCard: 'ID card no.', school: 'School', company: 'Company', startDate: 'Start date', endDate: 'End date',
      summarize: 'Internship summary', remindDate: 'Reminder date', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Prácticas', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', school: 'Centro de estudios', company: 'Empresa', startDate: 'Fecha de inicio',
      endDate: 'Fecha de fin', summarize: 'Resumen de prácticas', remindDate: 'Fecha de aviso', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: 'インターン記録', id: 'ID', name: '氏名', idCard: '身分証番号', school: '学校', company: '取引先', startDate: '開始日', endDate: '終了日', summarize: 'インターン総括',
      remindDate: 'リマインド日', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    searchable('school', '学校'),
    searchable('company', '单位'),
    { name: 'startDate', kind: 'date', label: '开始日期' },
    { name: 'endDate', kind: 'date', label: '结束日期' },
    { name: 'summarize', kind: 'text', label: '实习总结', width: 200 },
    { name: 'remindDate', kind: 'date', label: '提醒日期' },
    createTime,
    updateTime,
  ],
});

/** Housing-fund accounts. */
export const accGjjResource = defineResource({
  name: 'accGjj',
  table: 'acc_gjj',
  permission: 'ACCGJJ',
  label: '公积金账户',
  labels: {
    en: {
      _label: 'Housing fund accounts', id: 'ID', name: 'Name', idCard: 'ID card no.', base: 'Base', proportion: 'Rate', status: 'Status', toDate: 'Paid until',
      totalMonth: 'Total months', moneyYear: 'Annual amount', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Cuentas del fondo de vivienda', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', base: 'Base', proportion: 'Tasa', status: 'Estado',
      toDate: 'Pagado hasta', totalMonth: 'Meses acumulados', moneyYear: 'Importe anual', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '住宅積立金口座', id: 'ID', name: '氏名', idCard: '身分証番号', base: '基数', proportion: '比率', status: '状態', toDate: '納付済み月', totalMonth: '累計月数',
      moneyYear: '年間納付額', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    { name: 'base', kind: 'money', label: '基数' },
    { name: 'proportion', kind: 'ratio', label: '比例' },
    { name: 'status', kind: 'string', label: '状态', maxLength: 50 },
    { name: 'toDate', kind: 'date', label: '缴至' },
    { name: 'totalMonth', kind: 'int', label: '累计月数', min: 0 },
    { name: 'moneyYear', kind: 'money', label: '年缴额' },
    createTime,
    updateTime,
  ],
});

/** Salary records (historical, free-standing; the monthly salary flow is accountsSalary). */
export const accSalaryResource = defineResource({
  name: 'accSalary',
  table: 'acc_salary',
  permission: 'ACCSALARY',
  label: '工资记录',
  labels: {
    en: {
      _label: 'Salary records', id: 'ID', name: 'Name', idCard: 'ID card no.', month: 'Month', salary: 'Base salary', fiveOne: 'Personal contributions',
      deduct: 'Special deductions', jiaban: 'Overtime pay', koukuan: 'Deduction', tax: 'Income tax', realSalary: 'Net pay', createTime: 'Created',
      updateTime: 'Updated',
    },
    es: {
      _label: 'Registros salariales', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', month: 'Mes', salary: 'Salario base',
      fiveOne: 'Aportaciones personales', deduct: 'Deducciones especiales', jiaban: 'Horas extra', koukuan: 'Deducción', tax: 'IRPF',
      realSalary: 'Salario neto', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '給与記録', id: 'ID', name: '氏名', idCard: '身分証番号', month: '月', salary: '基本給', fiveOne: '個人負担合計', deduct: '特別付加控除', jiaban: '残業代', koukuan: '控除額',
      tax: '個人所得税', realSalary: '手取り', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    { name: 'month', kind: 'month', label: '月份' },
    { name: 'salary', kind: 'money', label: '基本工资' },
    { name: 'fiveOne', kind: 'money', label: '五险一金(个人)' },
    { name: 'deduct', kind: 'money', label: '专项附加扣除' },
    { name: 'jiaban', kind: 'money', label: '加班费' },
    { name: 'koukuan', kind: 'money', label: '扣款' },
    { name: 'tax', kind: 'money', label: '个人所得税' },
    { name: 'realSalary', kind: 'money', label: '实发工资' },
    createTime,
    updateTime,
  ],
});

/** Training records. */
export const accTrainResource = defineResource({
  name: 'accTrain',
  table: 'acc_train',
  permission: 'ACCTRAIN',
  label: '培训记录',
  labels: {
    en: {
      _label: 'Training records', id: 'ID', name: 'Name', idCard: 'ID card no.', project: 'Training course', trainDate: 'Training date',
      conclusion: 'Training result', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Formación', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', project: 'Curso', trainDate: 'Fecha de formación', conclusion: 'Resultado',
      createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: { _label: '研修記録', id: 'ID', name: '氏名', idCard: '身分証番号', project: '研修項目', trainDate: '研修日', conclusion: '研修結果', createTime: '作成日', updateTime: '更新日' },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    { name: 'project', kind: 'string', label: '培训项目', maxLength: 100 },
    { name: 'trainDate', kind: 'date', label: '培训日期' },
    { name: 'conclusion', kind: 'string', label: '培训结论', maxLength: 500 },
    createTime,
    updateTime,
  ],
});

/** Social-insurance records. */
export const accSocialResource = defineResource({
  name: 'accSocial',
  table: 'acc_social',
  permission: 'ACCSOCIAL',
  label: '社保记录',
  labels: {
    en: {
      _label: 'Social insurance records', id: 'ID', name: 'Name', idCard: 'ID card no.', socialBase: 'Social insurance base', cardStatus: 'Social card status',
      treatment: 'Benefits', years: 'Contribution years', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Registros de seguridad social', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', socialBase: 'Base de cotización',
      cardStatus: 'Estado de la tarjeta social', treatment: 'Prestaciones', years: 'Años cotizados', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '社会保険記録', id: 'ID', name: '氏名', idCard: '身分証番号', socialBase: '社会保険基数', cardStatus: '社会保障カード状態', treatment: '給付', years: '納付年数', createTime: '作成日',
      updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    { name: 'socialBase', kind: 'money', label: '社保基数' },
    { name: 'cardStatus', kind: 'string', label: '社保卡状态', maxLength: 50 },
    { name: 'treatment', kind: 'string', label: '待遇', maxLength: 200 },
    { name: 'years', kind: 'int', label: '缴费年限', min: 0 },
    createTime,
    updateTime,
  ],
});

/** Job-transfer records. */
export const accJobResource = defineResource({
  name: 'accJob',
  table: 'acc_job',
  permission: 'ACCJOB',
  label: '调岗记录',
  labels: {
    en: {
      _label: 'Job transfers', id: 'ID', name: 'Name', idCard: 'ID card no.', oldJob: 'Previous position', leaveDate: 'Transfer date', newJob: 'New position',
      entryDate: 'Start in new position', item: 'Notes', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Traslados', id: 'ID', name: 'Nombre', idCard: 'N.º de documento', oldJob: 'Puesto anterior', leaveDate: 'Fecha de traslado',
      newJob: 'Puesto nuevo', entryDate: 'Incorporación', item: 'Notas', createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: '異動記録', id: 'ID', name: '氏名', idCard: '身分証番号', oldJob: '旧職位', leaveDate: '異動日', newJob: '新職位', entryDate: '着任日', item: '事項', createTime: '作成日',
      updateTime: '更新日',
    },
  },
  dialogWidth: 500,
  searchMode: 'fieldChooser',
  fields: [
    id,
    name,
    idCard,
    searchable('oldJob', '原岗位', 50),
    { name: 'leaveDate', kind: 'date', label: '调离日期' },
    searchable('newJob', '新岗位', 50),
    { name: 'entryDate', kind: 'date', label: '到岗日期' },
    { name: 'item', kind: 'string', label: '事项', maxLength: 500 },
    createTime,
    updateTime,
  ],
});

/** Every HR record definition (each is a plain generic resource). */
export const HR_RECORD_RESOURCES = [
  accEntryResource,
  accDepartResource,
  accInternResource,
  accGjjResource,
  accSalaryResource,
  accTrainResource,
  accSocialResource,
  accJobResource,
] as const;

const HR_RECORD_NAMES: ReadonlySet<string> = new Set(HR_RECORD_RESOURCES.map((d) => d.name));

/** An HR record must name somebody: a completely blank row is refused (findings W6). */
export const HR_RECORD_IDENTITY_FIELDS = ['name', 'idCard'] as const;

/** The fields of which at least one must be filled in a row of `resource` (none for other resources). */
export function identityFieldsOf(resource: string): readonly string[] {
  return HR_RECORD_NAMES.has(resource) ? HR_RECORD_IDENTITY_FIELDS : [];
}

/** True when a row of `resource` fills none of its identity fields (blank strings count as empty). */
export function lacksIdentity(resource: string, values: Record<string, unknown>): boolean {
  const fields = identityFieldsOf(resource);
  return fields.length > 0 && fields.every((k) => values[k] == null || String(values[k]).trim() === '');
}
