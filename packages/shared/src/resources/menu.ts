import { defineResource } from '../resource/types.ts';

/**
 * Menus: a tree on `pid` (0 = top). `component` is the web screen key, `iframe` marks an external link
 * (its path must be an http(s) URL). `/api/menus/build` turns the caller's menus into routes.
 */
export const menuResource = defineResource({
  name: 'menus',
  table: 'sys_menu',
  permission: 'MENU',
  label: '菜单',
  labels: {
    en: {
      _label: 'Menu', id: 'ID', name: 'Menu name', icon: 'Icon', sort: 'Sort order', path: 'Path', component: 'Component', componentName: 'Component name',
      iframe: 'External link', hidden: 'Hidden', cache: 'Cached', pid: 'Parent menu', createTime: 'Created', updateTime: 'Updated',
    },
    es: {
      _label: 'Menú', id: 'ID', name: 'Nombre del menú', icon: 'Icono', sort: 'Orden', path: 'Ruta', component: 'Componente',
      componentName: 'Nombre del componente', iframe: 'Enlace externo', hidden: 'Oculto', cache: 'En caché', pid: 'Menú superior',
      createTime: 'Fecha de creación', updateTime: 'Actualizado',
    },
    ja: {
      _label: 'メニュー', id: 'ID', name: 'メニュー名', icon: 'アイコン', sort: '並び順', path: 'パス', component: 'コンポーネント', componentName: 'コンポーネント名', iframe: '外部リンク',
      hidden: '非表示', cache: 'キャッシュ', pid: '上位メニュー', createTime: '作成日', updateTime: '更新日時',
    },
  },
  dialogWidth: 600,
  defaultSort: [['sort', 'asc']],
  blurry: ['name', 'path', 'component'],
  unique: [{ fields: ['name'], message: '菜单名称已存在' }],
  tree: { parentField: 'pid', parentLabel: '上级菜单', onDelete: 'cascade' },
  fields: [
    { name: 'id', kind: 'int', label: 'ID', readOnly: true, list: false },
    { name: 'name', kind: 'string', label: '菜单名称', required: '请输入名称', maxLength: 100, filter: 'like' },
    { name: 'icon', kind: 'string', label: '图标', maxLength: 100 },
    { name: 'sort', kind: 'int', label: '排序', required: '请输入序号', min: 0, max: 999, defaultValue: 999 },
    { name: 'path', kind: 'string', label: '链接地址', maxLength: 255 },
    { name: 'component', kind: 'string', label: '组件路径', maxLength: 255 },
    { name: 'componentName', column: 'component_name', kind: 'string', label: '组件名称', maxLength: 100, list: false },
    { name: 'iframe', kind: 'bool', label: '外链菜单', required: '请选择菜单类型', defaultValue: false },
    { name: 'hidden', kind: 'bool', label: '隐藏', defaultValue: false, list: false },
    { name: 'cache', kind: 'bool', label: '缓存', defaultValue: false, list: false },
    { name: 'pid', kind: 'int', label: '上级菜单', required: '上级菜单不能为空', min: 0, defaultValue: 0, list: false },
    { name: 'createTime', kind: 'datetime', label: '创建日期', readOnly: true },
    { name: 'updateTime', kind: 'datetime', label: '更新时间', readOnly: true, list: false },
  ],
});
