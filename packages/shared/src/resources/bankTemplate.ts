import { defineResource } from '../resource/types.ts';

/**
 * Bank payroll-file templates (代发工资模板, issue 23 item 1): Chinese banks have no common layout (month-close.md
 * §B3), so each bank's file is described as data: file type, encoding, delimiter, batch header and trailer lines,
 * the detail columns and how the bank's return file (回盘) maps back. The layout text fields hold JSON checked by
 * `parseBankLayout` (packages/shared/src/payout/bankLayout.ts) when a template is saved and when a file is written.
 * Migration 0029 seeds ICBC 批量支付 (xls), BOC 快捷代发 (txt) and a generic CSV; operators add their bank's.
 */
export const BANK_FILE_TYPES = { xls: 'Excel 97-2003 (.xls)', xlsx: 'Excel (.xlsx)', txt: '文本 (.txt)', csv: 'CSV (.csv)' } as const;
export const BANK_FILE_ENCODINGS = { GBK: 'GBK', GB18030: 'GB18030', 'UTF-8': 'UTF-8', 'UTF-8-BOM': 'UTF-8（带BOM）' } as const;

export const bankTemplateResource = defineResource({
  name: 'bankTemplate',
  table: 'accounts_bank_template',
  permission: 'BANKTEMPLATE',
  label: '银行模板',
  dialogWidth: 800,
  searchMode: 'filters',
  defaultSort: [['id', 'asc']],
  unique: [{ fields: ['templateName'], message: '模板名称已存在' }],
  menu: { parent: 'tools', path: 'bankTemplate', icon: 'BankOutlined', titles: { en: 'Bank templates', es: 'Plantillas bancarias', ja: '銀行テンプレート' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'templateName', kind: 'string', label: '模板名称', required: '请输入模板名称', maxLength: 100, filter: 'like', search: true, width: 200 },
    { name: 'bank', kind: 'string', label: '银行', required: '请输入银行', maxLength: 50, filter: 'like', search: true, width: 120 },
    { name: 'version', kind: 'string', label: '版本', maxLength: 30, width: 80 },
    { name: 'fileType', kind: 'dict', dict: 'bank_file_type', label: '文件类型', required: '请选择文件类型', width: 90 },
    { name: 'encoding', kind: 'dict', dict: 'bank_file_encoding', label: '编码', required: '请选择编码', width: 90 },
    // between the detail columns of txt/csv; empty: fixed-width columns (each column's width); may be several characters (`@|$`)
    { name: 'delimiter', kind: 'string', label: '分隔符', maxLength: 10, width: 70 },
    { name: 'titleRow', kind: 'bool', label: '列标题行', defaultValue: true, list: false },
    { name: 'payerAccount', kind: 'string', label: '付款账号', maxLength: 40, list: false },
    { name: 'payerName', kind: 'string', label: '付款单位名称', maxLength: 100, list: false },
    { name: 'purpose', kind: 'string', label: '用途', maxLength: 50, defaultValue: '工资', list: false },
    { name: 'fileNamePattern', kind: 'string', label: '文件名', maxLength: 100, list: false },
    { name: 'headerLines', kind: 'text', label: '批头行', list: false, span: 24 },
    { name: 'columns', kind: 'text', label: '明细列', required: '请填写明细列', list: false, span: 24 },
    { name: 'trailerLines', kind: 'text', label: '批尾行', list: false, span: 24 },
    { name: 'returnMapping', kind: 'text', label: '回盘映射', required: '请填写回盘映射', list: false, span: 24 },
    { name: 'remark', kind: 'string', label: '备注', maxLength: 255, list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
