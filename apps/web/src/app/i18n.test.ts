import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '@app/shared/resources/index';
import { fieldLabel } from '../crud/resourceLabels';
import { changeLanguage, detectLanguage, i18n, menuTitle, normalizeLanguage } from './i18n';

describe('i18n', () => {
  afterAll(async () => {
    await changeLanguage('zh');
    document.cookie = 'language=; path=/; max-age=0';
  });

  it('maps browser tags to supported languages', () => {
    expect(normalizeLanguage('zh-CN')).toBe('zh');
    expect(normalizeLanguage('ja')).toBe('ja');
    expect(normalizeLanguage('es-419')).toBe('es');
    expect(normalizeLanguage('fr-FR')).toBeNull();
  });

  it('prefers the language cookie, then the browser language', () => {
    document.cookie = 'language=ja; path=/';
    expect(detectLanguage()).toBe('ja');
    document.cookie = 'language=; path=/; max-age=0';
    // jsdom's navigator.language is en-US
    expect(detectLanguage()).toBe('en');
  });

  it('shows definition labels in Chinese and translated labels elsewhere; menu titles by their Chinese text', async () => {
    expect(i18n.language).toBe('zh');
    expect(fieldLabel('dict', { name: 'name', label: '字典名称' })).toBe('字典名称');
    expect(menuTitle('系统管理')).toBe('系统管理');
    await changeLanguage('en');
    expect(fieldLabel('dict', { name: 'name', label: '字典名称' })).toBe(RESOURCES.dict.labels?.en.name);
    expect(fieldLabel('dict', { name: 'name', label: '字典名称' })).not.toBe('字典名称');
    expect(fieldLabel('nothing', { name: 'x', label: '某字段' })).toBe('某字段');
    expect(menuTitle('系统管理')).toBe('System');
    expect(menuTitle('没有翻译的菜单')).toBe('没有翻译的菜单');
    expect(i18n.t('request.timeout')).toBe('Network request timed out');
    expect(document.cookie).toContain('language=en');
    expect(document.documentElement.lang).toBe('en');
    await changeLanguage('zh');
    expect(i18n.t('request.timeout')).toBe('网络请求超时');
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});
