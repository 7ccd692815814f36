import { describe, expect, it } from 'vitest';
import { menuTitleTranslations, type MenuVo } from './navigation.ts';

describe('menuTitleTranslations', () => {
  it('lists the other-language titles the menus carry, at any depth', () => {
    const menus: MenuVo[] = [
      {
        path: '/records',
        meta: { title: '人事档案' },
        children: [
          { path: 'gadget', component: 'crud/gadget', meta: { title: '小工具', titles: { en: 'Gadgets', ja: 'ガジェット' } } },
          { path: 'accEntry', component: 'crud/accEntry', meta: { title: '入职记录' } },
        ],
      },
    ];
    expect(menuTitleTranslations(menus)).toEqual([
      ['en', '小工具', 'Gadgets'],
      ['ja', '小工具', 'ガジェット'],
    ]);
    expect(menuTitleTranslations(null)).toEqual([]);
    expect(menuTitleTranslations([null as unknown as MenuVo])).toEqual([]);
  });
});
