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
export const HR_RECORD_IDENTITY_MESSAGE = '请至少填写姓名或身份证号';

/** The fields of which at least one must be filled in a row of `resource` (none for other resources). */
export function identityFieldsOf(resource: string): readonly string[] {
  return HR_RECORD_NAMES.has(resource) ? HR_RECORD_IDENTITY_FIELDS : [];
}

/** True when a row of `resource` fills none of its identity fields (blank strings count as empty). */
export function lacksIdentity(resource: string, values: Record<string, unknown>): boolean {
  const fields = identityFieldsOf(resource);
  return fields.length > 0 && fields.every((k) => values[k] == null || String(values[k]).trim() === '');
}
