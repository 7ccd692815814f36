import { defineResource } from '../resource/types.ts';

/**
 * Social-insurance and housing-fund change templates (社保模板, issue 24 item 3): each city's bureau and fund centre
 * takes 增员 / 减员 / 基数变更 lists in its own column set (month-close.md §B4), so each is described as data, like
 * the bank templates: region, target (社保 / 公积金), file type, encoding, lines above the table and per list the
 * columns (JSON checked by `parseSiChangeLayout`, packages/shared/src/socialInsurance/siChangeLayout.ts, on save and
 * on export). Migration 0033 seeds Beijing and Shenzhen; operators add their cities.
 */
export const siChangeTemplateResource = defineResource({
  name: 'siChangeTemplate',
  table: 'accounts_si_change_template',
  permission: 'SICHANGETEMPLATE',
  label: '社保模板',
  labels: {
    en: {
      _label: 'SI list templates', id: 'ID', templateName: 'Template name', region: 'Region', target: 'For', fileType: 'File type', encoding: 'Encoding',
      titleRow: 'Title row', unitNo: 'Employer number', unitName: 'Employer name', fileNamePattern: 'File name', headerLines: 'Header lines',
      addColumns: 'Addition columns', removeColumns: 'Removal columns', baseColumns: 'Base-change columns', remark: 'Remark', createTime: 'Created',
      updateTime: 'Updated',
    },
    es: {
      _label: 'Plantillas de altas y bajas', id: 'ID', templateName: 'Nombre de plantilla', region: 'Región', target: 'Destino', fileType: 'Tipo de archivo',
      encoding: 'Codificación', titleRow: 'Fila de títulos', unitNo: 'Número de empleador', unitName: 'Nombre del empleador',
      fileNamePattern: 'Nombre de archivo', headerLines: 'Líneas de cabecera', addColumns: 'Columnas de altas', removeColumns: 'Columnas de bajas',
      baseColumns: 'Columnas de cambio de base', remark: 'Observaciones', createTime: 'Creado', updateTime: 'Actualizado',
    },
    ja: {
      _label: '社会保険届出テンプレート', id: 'ID', templateName: 'テンプレート名', region: '地域', target: '提出先', fileType: 'ファイル形式', encoding: '文字コード', titleRow: '見出し行',
      unitNo: '事業所番号', unitName: '事業所名', fileNamePattern: 'ファイル名', headerLines: 'ヘッダー行', addColumns: '資格取得の列', removeColumns: '資格喪失の列', baseColumns: '基数変更の列',
      remark: '備考', createTime: '作成日', updateTime: '更新日',
    },
  },
  dialogWidth: 800,
  searchMode: 'filters',
  defaultSort: [['id', 'asc']],
  unique: [{ fields: ['templateName'], message: '模板名称已存在' }],
  menu: { parent: 'tools', path: 'siChangeTemplate', icon: 'SafetyOutlined', titles: { en: 'SI list templates', es: 'Plantillas de altas y bajas', ja: '社会保険届出テンプレート' } },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'templateName', kind: 'string', label: '模板名称', required: '请输入模板名称', maxLength: 100, filter: 'like', search: true, width: 220 },
    { name: 'region', kind: 'string', label: '地区', required: '请输入地区', maxLength: 50, filter: 'like', search: true, width: 90 },
    { name: 'target', kind: 'dict', dict: 'si_change_target', label: '对象', required: '请选择对象', filter: 'eq', search: true, width: 80 },
    { name: 'fileType', kind: 'dict', dict: 'si_change_file_type', label: '文件类型', required: '请选择文件类型', width: 110 },
    { name: 'encoding', kind: 'dict', dict: 'bank_file_encoding', label: '编码', required: '请选择编码', width: 90 },
    { name: 'titleRow', kind: 'bool', label: '列标题行', defaultValue: true, list: false },
    { name: 'unitNo', kind: 'string', label: '单位编号', maxLength: 50, list: false },
    { name: 'unitName', kind: 'string', label: '单位名称', maxLength: 100, list: false },
    { name: 'fileNamePattern', kind: 'string', label: '文件名', maxLength: 100, list: false },
    { name: 'headerLines', kind: 'text', label: '表头行', list: false, span: 24 },
    { name: 'addColumns', kind: 'text', label: '增员列', list: false, span: 24 },
    { name: 'removeColumns', kind: 'text', label: '减员列', list: false, span: 24 },
    { name: 'baseColumns', kind: 'text', label: '基数变更列', list: false, span: 24 },
    { name: 'remark', kind: 'string', label: '备注', maxLength: 255, width: 260 },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
    { name: 'updateTime', kind: 'datetime', label: '更新日期', readOnly: true, list: false },
  ],
});
