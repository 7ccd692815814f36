import { defineResource } from '../resource/types.ts';

/** Data scopes of a role (spec §3): everything, the user's own department, or chosen departments. */
export const DATA_SCOPES = ['全部', '本级', '自定义'] as const;
export type DataScopeName = (typeof DATA_SCOPES)[number];

/**
 * Roles. `level`: smaller is higher (1 = top). Link-table fields: menus [{id,pid}] and permissions
 * [{id,name,alias}] (read only here), depts [{id,name}] for 自定义.
 */
export const roleResource = defineResource({
  name: 'roles',
  table: 'sys_role',
  permission: 'ROLES',
  label: '角色',
  labels: {
    en: {
      _label: 'Role', id: 'ID', name: 'Name', level: 'Role level', dataScope: 'Data scope', remark: 'Description', createTime: 'Created', updateTime: 'Updated',
      menus: 'Menus', permissions: 'Permissions', depts: 'Departments',
    },
    es: {
      _label: 'Rol', id: 'ID', name: 'Nombre', level: 'Nivel del rol', dataScope: 'Alcance de datos', remark: 'Descripción', createTime: 'Fecha de creación',
      updateTime: 'Actualizado', menus: 'Menús', permissions: 'Permisos', depts: 'Departamentos',
    },
    ja: {
      _label: 'ロール', id: 'ID', name: '名称', level: 'ロールレベル', dataScope: 'データ範囲', remark: '説明', createTime: '作成日', updateTime: '更新日時', menus: 'メニュー',
      permissions: '権限', depts: '部門',
    },
  },
  dialogWidth: 520,
  blurry: ['name', 'remark'],
  defaultSort: [['level', 'asc']],
  unique: [{ fields: ['name'], message: '角色名称已存在' }],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '名称', required: '请输入名称', maxLength: 100 },
    { name: 'level', kind: 'int', label: '角色级别', required: '请输入角色级别', min: 1, max: 999, defaultValue: 3 },
    {
      name: 'dataScope',
      kind: 'string',
      label: '数据范围',
      required: '请选择数据范围',
      defaultValue: '本级',
      maxLength: 20,
      pattern: { regex: /^(全部|本级|自定义)$/, message: '数据范围只能是全部、本级或自定义' },
    },
    { name: 'remark', kind: 'string', label: '描述', maxLength: 255 },
    // set through /api/roles/menu and /api/roles/permission (their own checks), read here
    {
      name: 'menus',
      kind: 'refMany',
      label: '菜单',
      readOnly: true,
      ref: { resource: 'menus', labelField: 'name' },
      links: { table: 'sys_roles_menus', ownerColumn: 'role_id', targetColumn: 'menu_id', show: ['pid'] },
      list: false,
      detail: false,
      form: false,
      excel: false,
    },
    {
      name: 'permissions',
      kind: 'refMany',
      label: '权限',
      readOnly: true,
      ref: { resource: 'permissions', labelField: 'alias' },
      links: { table: 'sys_roles_permissions', ownerColumn: 'role_id', targetColumn: 'permission_id', show: ['name', 'alias'] },
      list: false,
      detail: false,
      form: false,
      excel: false,
    },
    // the departments of a 自定义 data scope
    {
      name: 'depts',
      kind: 'refMany',
      label: '部门',
      ref: { resource: 'dept', labelField: 'name' },
      links: { table: 'sys_roles_depts', ownerColumn: 'role_id', targetColumn: 'dept_id', show: ['name'] },
      list: false,
      detail: false,
      form: false,
      excel: false,
    },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});
