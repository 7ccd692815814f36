import { defineResource } from '../resource/types.ts';

/**
 * The operation/error log, written by the server for logins and every mutating call (secrets masked).
 * Read-only; only administrators read it, except `/api/logs/user` (the caller's own entries).
 */
export const logResource = defineResource({
  name: 'logs',
  table: 'sys_log',
  permission: 'ADMIN',
  permissions: { list: ['ADMIN'], create: ['ADMIN'], edit: ['ADMIN'], delete: ['ADMIN'], export: ['ADMIN'] },
  label: '日志',
  blurry: ['username', 'description', 'method', 'params', 'requestIp'],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'username', kind: 'string', label: '用户名', readOnly: true, filter: 'like' },
    { name: 'requestIp', column: 'request_ip', kind: 'string', label: 'IP', readOnly: true },
    { name: 'description', kind: 'string', label: '描述', readOnly: true, filter: 'like' },
    { name: 'method', kind: 'string', label: '方法名称', readOnly: true },
    { name: 'params', kind: 'text', label: '参数', readOnly: true },
    { name: 'browser', kind: 'string', label: '浏览器', readOnly: true, list: false },
    { name: 'time', kind: 'int', label: '请求耗时', readOnly: true },
    { name: 'logType', column: 'log_type', kind: 'string', label: '日志类型', readOnly: true, list: false, sortable: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
  ],
});
