import { describe, expect, it } from 'vitest';
import { buildNavigation, openKeysFor } from './menus';

const TREE = [
  {
    name: '系统管理',
    path: '/system',
    component: 'Layout',
    redirect: 'noredirect',
    alwaysShow: true,
    meta: { title: '系统管理', icon: 'SettingOutlined', noCache: true },
    children: [
      { name: '用户管理', path: 'user', component: 'system/user/index', meta: { title: '用户管理', icon: 'UserOutlined', noCache: true } },
      { name: '隐藏页', path: 'secret', hidden: true, component: 'system/secret/index', meta: { title: '隐藏页' } },
      { name: '外链', path: 'https://example.com/docs', meta: { title: '外链' } },
    ],
  },
  { path: '/acPayslip', component: 'Layout', children: [{ name: '工资条', path: 'index', component: 'salary/acPayslip/index', meta: { title: '工资条', icon: 'ProfileOutlined' } }] },
  { name: '人事档案', path: '/records', component: 'Layout', alwaysShow: true, meta: { title: '人事档案' }, children: [{ path: 'accEntry', component: 'crud/accEntry', meta: { title: '入职记录' } }] },
];

describe('buildNavigation', () => {
  const nav = buildNavigation(TREE);

  it('builds full paths, screen keys and breadcrumbs', () => {
    expect(nav.routes.get('/system/user')).toMatchObject({ component: 'system/user/index', title: '用户管理', parents: [{ title: '系统管理' }] });
    expect(nav.routes.get('/records/accEntry')).toMatchObject({ component: 'crud/accEntry', title: '入职记录' });
  });

  it('flattens a wrapped single-page root into one sidebar entry', () => {
    expect(nav.items[1]).toEqual({ key: '/acPayslip/index', title: '工资条', icon: 'ProfileOutlined', path: '/acPayslip/index' });
    expect(nav.routes.get('/acPayslip/index')?.parents).toEqual([]);
  });

  it('keeps hidden pages routable but out of the sidebar; external links open outside', () => {
    expect(nav.routes.get('/system/secret')?.hidden).toBe(true);
    const system = nav.items[0];
    expect(system.children?.map((c) => c.key)).toEqual(['/system/user', 'https://example.com/docs']);
    expect(system.children?.[1].href).toBe('https://example.com/docs');
    expect(nav.routes.has('https://example.com/docs')).toBe(false);
  });

  it('opens the directories of the current page and survives junk', () => {
    expect(openKeysFor(nav.items, '/system/user')).toEqual(['dir:/system']);
    expect(buildNavigation(null).items).toEqual([]);
    expect(buildNavigation([{ path: '/x', component: 'Layout', alwaysShow: true, children: [] } as never]).items).toEqual([]);
  });
});
