import { defineResource } from '../resource/types.ts';

/** Departments: a tree on `pid` (0 = top level); lists come back as `{content: tree, totalElements}`. */
export const deptResource = defineResource({
  name: 'dept',
  table: 'sys_dept',
  permission: 'DEPT',
  label: '部门',
  labels: {
    en: {
      _label: 'Department', id: 'ID', name: 'Name', pid: 'Parent department', sort: 'Sort order', enabled: 'Status', createTime: 'Created',
      updateTime: 'Updated',
    },
    es: {
      _label: 'Departamento', id: 'ID', name: 'Nombre', pid: 'Departamento superior', sort: 'Orden', enabled: 'Estado', createTime: 'Fecha de creación',
      updateTime: 'Actualizado',
    },
    ja: { _label: '部門', id: 'ID', name: '名称', pid: '上位部門', sort: '並び順', enabled: '状態', createTime: '作成日', updateTime: '更新日時' },
  },
  dialogWidth: 500,
  defaultSort: [['sort', 'asc']],
  tree: { parentField: 'pid', parentLabel: '上级部门', onDelete: { refuse: 'DEPT_HAS_CHILDREN' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 100, filter: 'like' },
    { name: 'pid', kind: 'int', label: '上级部门', required: '上级部门不能为空', min: 0, defaultValue: 1, list: false, filter: 'eq' },
    { name: 'sort', kind: 'int', label: '排序', min: 0, max: 999, defaultValue: 999, list: false },
    { name: 'enabled', kind: 'bool', label: '状态', required: '状态不能为空', defaultValue: true, dict: 'dept_status', filter: 'eq' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});
