import { defineResource } from '../resource/types.ts';

/** Dictionaries (名称/描述); their entries are `dictDetail`. */
export const dictResource = defineResource({
  name: 'dict',
  table: 'sys_dict',
  permission: 'DICT',
  label: '字典',
  labels: {
    en: { _label: 'Dictionary', id: 'ID', name: 'Dictionary name', remark: 'Description', createTime: 'Created' },
    es: { _label: 'Diccionario', id: 'ID', name: 'Nombre del diccionario', remark: 'Descripción', createTime: 'Fecha de creación' },
    ja: { _label: '辞書', id: 'ID', name: '辞書名', remark: '説明', createTime: '作成日' },
  },
  dialogWidth: 500,
  blurry: ['name', 'remark'],
  unique: [{ fields: ['name'], message: '字典名称已存在' }],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '字典名称', required: '请输入名称', maxLength: 100, filter: 'like' },
    { name: 'remark', kind: 'string', label: '描述', filter: 'like' },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
  ],
});

/** Dictionary entries: label shown, value stored, sort 0-999 (default 999). */
export const dictDetailResource = defineResource({
  name: 'dictDetail',
  table: 'sys_dict_detail',
  permission: 'DICT',
  // Every screen reads dictionaries (selects, labels), so reading needs only a login.
  permissions: { list: [] },
  label: '字典详情',
  labels: {
    en: { _label: 'Dictionary entry', id: 'ID', dictId: 'Dictionary', label: 'Label', value: 'Value', sort: 'Sort order', createTime: 'Created' },
    es: {
      _label: 'Entrada del diccionario', id: 'ID', dictId: 'Diccionario', label: 'Etiqueta', value: 'Valor', sort: 'Orden', createTime: 'Fecha de creación',
    },
    ja: { _label: '辞書項目', id: 'ID', dictId: '所属辞書', label: 'ラベル', value: '値', sort: '並び順', createTime: '作成日' },
  },
  dialogWidth: 500,
  defaultSort: [['sort', 'asc']],
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'dictId', column: 'dict_id', kind: 'ref', label: '所属字典', required: '所属字典不能为空', ref: { resource: 'dict', labelField: 'name' }, filter: 'eq', list: false },
    { name: 'label', kind: 'string', label: '字典标签', required: '请输入字典标签', filter: 'like' },
    { name: 'value', kind: 'string', label: '字典值', required: '请输入字典值' },
    { name: 'sort', kind: 'int', label: '排序', required: '请输入序号', min: 0, max: 999, defaultValue: 999 },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true, list: false },
  ],
});
