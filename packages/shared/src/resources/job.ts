import { defineResource } from '../resource/types.ts';

const USER_CODES = ['USER_ALL', 'USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE'];

/** Positions (岗位), each in one department; rows also carry `dept {id,name}` and `deptSuperiorName`. */
export const jobResource = defineResource({
  name: 'job',
  table: 'sys_job',
  permission: 'USERJOB',
  // The user dialog lists positions, so user managers may read them too.
  permissions: { list: ['USERJOB_ALL', 'USERJOB_SELECT', ...USER_CODES] },
  label: '岗位',
  labels: {
    en: {
      _label: 'Position', id: 'ID', name: 'Name', sort: 'Sort order', enabled: 'Status', deptId: 'Department', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Puesto', id: 'ID', name: 'Nombre', sort: 'Orden', enabled: 'Estado', deptId: 'Departamento', createTime: 'Fecha de creación',
      updateTime: 'Actualizado',
    },
    ja: { _label: '職位', id: 'ID', name: '名称', sort: '並び順', enabled: '状態', deptId: '所属部門', createTime: '作成日', updateTime: '更新日時' },
  },
  dialogWidth: 500,
  defaultSort: [['sort', 'asc']],
  unique: [{ fields: ['name', 'deptId'], message: '该部门下已存在同名岗位' }],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 100, filter: 'like' },
    { name: 'sort', kind: 'int', label: '排序', required: '请输入序号', min: 0, max: 999, defaultValue: 999 },
    { name: 'enabled', kind: 'bool', label: '状态', required: '状态不能为空', defaultValue: true, dict: 'job_status', filter: 'eq' },
    { name: 'deptId', column: 'dept_id', kind: 'ref', label: '所属部门', required: '所属部门不能为空', ref: { resource: 'dept', labelField: 'name' }, filter: 'eq', list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});
