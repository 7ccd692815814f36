import { ORDINARY_EMPLOYEE_JOB } from '../permissions.ts';
import { defineResource } from '../resource/types.ts';

/** 2-20 characters (spec §5); the column allows 50, so longer input gets the spec's message, not a DB error. */
const LENGTH_2_TO_20 = { regex: /^[\s\S]{2,20}$/, message: '长度在 2 到 20 个字符' };

/**
 * Back-office users. Roles are a link-table field (`roles: [{id}]` in the body, `roles: [{id,name,level}]` in
 * rows); `dept {id,name}` and `job {id,name}` on rows come from the server module.
 */
export const userResource = defineResource({
  name: 'users',
  table: 'sys_user',
  permission: 'USER',
  // Exporting every user's personal data is an administrator's job only (spec §6).
  permissions: { export: ['ADMIN'] },
  label: '用户',
  labels: {
    en: {
      _label: 'User', id: 'ID', username: 'Username', cname: 'Full name', phone: 'Phone', email: 'Email', enabled: 'Status', deptId: 'Department',
      jobId: 'Position', avatar: 'Avatar', lastPasswordResetTime: 'Password last changed', mustChangePassword: 'Must change initial password',
      createTime: 'Created', updateTime: 'Updated', passwordHash: 'Password', roles: 'Roles',
    },
    es: {
      _label: 'Usuario', id: 'ID', username: 'Usuario', cname: 'Nombre completo', phone: 'Teléfono', email: 'Correo', enabled: 'Estado', deptId: 'Departamento',
      jobId: 'Puesto', avatar: 'Avatar', lastPasswordResetTime: 'Último cambio de contraseña', mustChangePassword: 'Debe cambiar la contraseña inicial',
      createTime: 'Fecha de creación', updateTime: 'Actualizado', passwordHash: 'Contraseña', roles: 'Roles',
    },
    ja: {
      _label: 'ユーザー', id: 'ID', username: 'ユーザー名', cname: '氏名', phone: '電話', email: 'メール', enabled: '状態', deptId: '部門', jobId: '職位', avatar: 'アバター',
      lastPasswordResetTime: 'パスワード最終変更日時', mustChangePassword: '初期パスワードの変更が必要', createTime: '作成日', updateTime: '更新日時', passwordHash: 'パスワード', roles: 'ロール',
    },
  },
  dialogWidth: 570,
  blurry: ['username', 'email'],
  unique: [
    { fields: ['username'], message: '用户名已存在', code: 'USERNAME_TAKEN' },
    { fields: ['email'], message: '邮箱已被其他用户使用' },
  ],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'username', kind: 'string', label: '用户名', required: '请输入用户名', maxLength: 50, pattern: LENGTH_2_TO_20 },
    { name: 'cname', kind: 'string', label: '中文名', required: '请输入中文名', maxLength: 50, pattern: LENGTH_2_TO_20 },
    { name: 'phone', kind: 'string', label: '电话', required: '请输入电话号码', maxLength: 20, pattern: { regex: /^1[34578]\d{9}$/, message: '请输入正确的11位手机号码' } },
    // required (spec §5) except for employee logins (job 普通员工, made by 为员工开通账号 without one, U6)
    { name: 'email', kind: 'email', label: '邮箱', required: '请输入邮箱地址', maxLength: 100, optionalWhen: { field: 'jobId', labels: [ORDINARY_EMPLOYEE_JOB] } },
    { name: 'enabled', kind: 'bool', label: '状态', required: '状态不能为空', defaultValue: true, dict: 'user_status', filter: 'eq' },
    { name: 'deptId', column: 'dept_id', kind: 'ref', label: '部门', required: '部门不能为空', ref: { resource: 'dept', labelField: 'name' }, list: false },
    { name: 'jobId', column: 'job_id', kind: 'ref', label: '岗位', required: '岗位不能为空', ref: { resource: 'job', labelField: 'name' }, list: false },
    // `[{id}]` in bodies (required by the server's user checks), `[{id,name,level}]` in rows, highest level first
    {
      name: 'roles',
      kind: 'refMany',
      label: '角色',
      ref: { resource: 'roles', labelField: 'name' },
      links: { table: 'sys_users_roles', ownerColumn: 'user_id', targetColumn: 'role_id', show: ['name', 'level'], orderBy: [['level', 'asc']] },
      list: false,
      detail: false,
      form: false,
      excel: false,
    },
    { name: 'avatar', kind: 'string', label: '头像', readOnly: true, list: false, excel: false },
    { name: 'lastPasswordResetTime', kind: 'datetime', label: '最后修改密码的时间', readOnly: true, list: false },
    // Set by the server when it issues a password (new user, employee login); cleared by the user's own change.
    { name: 'mustChangePassword', column: 'must_change_password', kind: 'bool', label: '须修改初始密码', readOnly: true, list: false, form: false, detail: false, excel: false, sortable: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false, excel: false },
    // Set only by the server (a random initial password, then password changes); never leaves it.
    { name: 'passwordHash', column: 'password_hash', kind: 'string', label: '密码', readOnly: true, secret: true, list: false, form: false, detail: false, excel: false, sortable: false },
  ],
});
