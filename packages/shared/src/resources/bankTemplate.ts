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
  labels: {
    en: {
      _label: 'Bank templates', id: 'ID', templateName: 'Template name', bank: 'Bank', version: 'Version', fileType: 'File type', encoding: 'Encoding',
      delimiter: 'Delimiter', titleRow: 'Title row', payerAccount: 'Payer account', payerName: 'Payer name', purpose: 'Purpose', fileNamePattern: 'File name',
      headerLines: 'Batch header lines', columns: 'Detail columns', trailerLines: 'Batch trailer lines', returnMapping: 'Return file mapping', remark: 'Remark',
      createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Plantillas bancarias', id: 'ID', templateName: 'Nombre de plantilla', bank: 'Banco', version: 'Versión', fileType: 'Tipo de archivo',
      encoding: 'Codificación', delimiter: 'Separador', titleRow: 'Fila de títulos', payerAccount: 'Cuenta del pagador', payerName: 'Nombre del pagador',
      purpose: 'Concepto', fileNamePattern: 'Nombre de archivo', headerLines: 'Líneas de cabecera', columns: 'Columnas de detalle',
      trailerLines: 'Líneas finales', returnMapping: 'Mapeo de la respuesta', remark: 'Observaciones', createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: {
      _label: '銀行テンプレート', id: 'ID', templateName: 'テンプレート名', bank: '銀行', version: 'バージョン', fileType: 'ファイル形式', encoding: '文字コード', delimiter: '区切り文字',
      titleRow: '見出し行', payerAccount: '支払口座', payerName: '支払者名', purpose: '用途', fileNamePattern: 'ファイル名', headerLines: 'ヘッダー行', columns: '明細列',
      trailerLines: 'トレーラー行', returnMapping: '結果ファイルの対応', remark: '備考', createTime: '作成日時', updateTime: '更新日時',
    },
  },
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
