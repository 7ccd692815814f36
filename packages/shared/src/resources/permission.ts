import { defineResource } from '../resource/types.ts';

/** Permission codes as a tree (`<X>_ALL` parents); `name` is the code the server checks, `alias` its label. */
export const permissionResource = defineResource({
  name: 'permissions',
  table: 'sys_permission',
  permission: 'PERMISSION',
  label: '权限',
  labels: {
    en: { _label: 'Permission', id: 'ID', name: 'Name', alias: 'Alias', pid: 'Parent permission', createTime: 'Created', updateTime: 'Updated' },
    es: { _label: 'Permiso', id: 'ID', name: 'Nombre', alias: 'Alias', pid: 'Permiso superior', createTime: 'Fecha de creación', updateTime: 'Actualizado' },
    ja: { _label: '権限', id: 'ID', name: '名称', alias: '別名', pid: '上位権限', createTime: '作成日', updateTime: '更新日時' },
  },
  dialogWidth: 500,
  defaultSort: [['id', 'asc']],
  blurry: ['name', 'alias'],
  unique: [{ fields: ['name'], message: '权限名称已存在' }],
  tree: { parentField: 'pid', parentLabel: '上级权限', onDelete: 'cascade' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    {
      name: 'name',
      kind: 'string',
      label: '名称',
      required: '请输入名称',
      maxLength: 100,
      filter: 'like',
      pattern: { regex: /^[A-Za-z][A-Za-z0-9_:.-]*$/, message: '名称只能包含字母、数字、下划线、冒号、点和横线，并以字母开头' },
    },
    { name: 'alias', kind: 'string', label: '别名', required: '请输入别名', maxLength: 100 },
    { name: 'pid', kind: 'int', label: '上级权限', required: '上级权限不能为空', min: 0, defaultValue: 0, list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});
