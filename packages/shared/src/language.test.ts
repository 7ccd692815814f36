import { describe, expect, it } from 'vitest';
import { acceptedLanguages, languageCookie, normalizeLanguage, pickLanguage } from './language';

describe('UI language of a page load', () => {
  it('maps language tags to the four UI languages', () => {
    expect(normalizeLanguage('zh-CN')).toBe('zh');
    expect(normalizeLanguage('ZH_tw')).toBe('zh');
    expect(normalizeLanguage('es-419')).toBe('es');
    expect(normalizeLanguage('ja')).toBe('ja');
    expect(normalizeLanguage('jav')).toBeNull();
    expect(normalizeLanguage('fr-FR')).toBeNull();
  });

  it('reads the language cookie among others', () => {
    expect(languageCookie('dp-token=abc; language=ja; x=1')).toBe('ja');
    expect(languageCookie('xlanguage=ja')).toBeNull();
    expect(languageCookie(undefined)).toBeNull();
  });

  it('orders Accept-Language by preference, dropping q=0 and *', () => {
    expect(acceptedLanguages('fr-FR, ja;q=0.5, en;q=0.8, *;q=0.1, es;q=0')).toEqual(['fr-FR', 'en', 'ja']);
    expect(acceptedLanguages('')).toEqual([]);
  });

  it('takes the cookie, then the first supported browser language, else English (spec §2)', () => {
    expect(pickLanguage('es', ['ja'])).toBe('es');
    expect(pickLanguage('klingon', ['fr', 'ja-JP', 'zh'])).toBe('ja');
    expect(pickLanguage(null, ['fr', 'de'])).toBe('en');
  });
});
