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
  labels: {
    en: {
      _label: 'Log', id: 'ID', username: 'Username', requestIp: 'IP', description: 'Description', method: 'Method', params: 'Parameters', browser: 'Browser',
      time: 'Duration', logType: 'Log type', createTime: 'Created',
    },
    es: {
      _label: 'Registro', id: 'ID', username: 'Usuario', requestIp: 'IP', description: 'Descripción', method: 'Método', params: 'Parámetros',
      browser: 'Navegador', time: 'Duración', logType: 'Tipo de registro', createTime: 'Fecha de creación',
    },
    ja: {
      _label: 'ログ', id: 'ID', username: 'ユーザー名', requestIp: 'IP', description: '説明', method: 'メソッド', params: 'パラメータ', browser: 'ブラウザ', time: '所要時間',
      logType: 'ログ種別', createTime: '作成日',
    },
  },
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
