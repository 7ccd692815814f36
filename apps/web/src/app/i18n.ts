import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import { FALLBACK_LANGUAGE as FALLBACK, LANGUAGES, LANGUAGE_COOKIE, type Language, languageCookie, normalizeLanguage, pickLanguage } from '@app/shared/language';

/**
 * i18next set-up. Resources are the JSON files `src/locales/<lng>/<namespace>.json` (namespace = file name),
 * loaded lazily per language; Chinese is always loaded because it is the fallback. The antd locale and the
 * dayjs locale follow the language.
 */

export { LANGUAGES, type Language, normalizeLanguage } from '@app/shared/language';

// One chunk per language with all its namespaces (locales/<lng>/index.ts): a page load asks for one file, not one per namespace.
const bundleLoaders: Record<Language, () => Promise<{ default: Record<string, Record<string, unknown>> }>> = {
  zh: () => import('../locales/zh/index'),
  en: () => import('../locales/en/index'),
  es: () => import('../locales/es/index'),
  ja: () => import('../locales/ja/index'),
};

/** './common.json' -> 'common' */
const namespaceOf = (file: string) => file.replace(/^.*\//, '').replace(/\.json$/, '');

const antdLocaleLoaders: Record<Language, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/es/locale/zh_CN'),
  en: () => import('antd/es/locale/en_US'),
  es: () => import('antd/es/locale/es_ES'),
  ja: () => import('antd/es/locale/ja_JP'),
};
const dayjsLocaleLoaders: Record<Language, () => Promise<unknown>> = {
  zh: () => import('dayjs/locale/zh-cn'),
  en: () => Promise.resolve(),
  es: () => import('dayjs/locale/es'),
  ja: () => import('dayjs/locale/ja'),
};
const DAYJS_NAMES: Record<Language, string> = { zh: 'zh-cn', en: 'en', es: 'es', ja: 'ja' };

const antdLocales = new Map<Language, Locale>();
const loadedLanguages = new Set<Language>();

/** Spec §2: the `language` cookie, then the browser language, else English. */
export function detectLanguage(): Language {
  const cookie = typeof document !== 'undefined' ? languageCookie(document.cookie) : null;
  const browser = typeof navigator !== 'undefined' ? [...(navigator.languages ?? []), navigator.language] : [];
  return pickLanguage(cookie, browser);
}

/** The texts of a language plus its antd and dayjs locales, all requested at once; resolves to its namespaces. */
async function loadLanguage(lng: Language): Promise<string[]> {
  const texts = loadedLanguages.has(lng) ? null : bundleLoaders[lng]();
  const antd = antdLocales.has(lng) ? null : Promise.all([antdLocaleLoaders[lng](), dayjsLocaleLoaders[lng]()]);
  if (texts) {
    for (const [file, data] of Object.entries((await texts).default)) i18n.addResourceBundle(lng, namespaceOf(file), data, true, true);
    loadedLanguages.add(lng);
  }
  if (antd) antdLocales.set(lng, (await antd)[0].default);
  return Object.keys(i18n.store?.data?.[lng] ?? {});
}

function applyLanguage(lng: Language): void {
  dayjs.locale(DAYJS_NAMES[lng]);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = LANGUAGES.find((l) => l.code === lng)?.htmlLang ?? lng;
  }
}

let initPromise: Promise<typeof i18n> | null = null;

/** Initialise i18next with the detected (or given) language; resolves once its texts are loaded. */
export function initI18n(lng: Language = detectLanguage()): Promise<typeof i18n> {
  if (!initPromise) {
    initPromise = (async () => {
      await i18n.use(initReactI18next).init({
        lng,
        fallbackLng: FALLBACK,
        supportedLngs: LANGUAGES.map((l) => l.code),
        ns: [],
        defaultNS: 'common',
        resources: {},
        partialBundledLanguages: true,
        interpolation: { escapeValue: false },
        returnNull: false,
        react: { useSuspense: false },
      });
      // "Enter {{label, lowerFirst}}": English and Spanish put a field label mid-sentence in lower case
      // ("Enter company name", findings W9); acronyms such as "ID" keep their capitals.
      i18n.services.formatter?.add('lowerFirst', lowerFirst);
      const [namespaces] = await Promise.all([loadLanguage(FALLBACK), loadLanguage(lng)]);
      await i18n.loadNamespaces(namespaces);
      applyLanguage(lng);
      // re-emit so components rendered before the bundles arrived pick them up
      await i18n.changeLanguage(lng);
      return i18n;
    })();
  }
  return initPromise;
}

/** "Company name" -> "company name"; "ID card" and "SMTP host" unchanged (their second letter is a capital too). */
export function lowerFirst(value: unknown): string {
  const s = String(value ?? '');
  return s.length > 1 && s[1] === s[1].toLowerCase() ? s[0].toLowerCase() + s.slice(1) : s;
}

/** Switch the UI language: load its texts, set the cookie, switch antd/dayjs. */
export async function changeLanguage(lng: Language): Promise<void> {
  await initI18n();
  await loadLanguage(lng);
  if (typeof document !== 'undefined') {
    document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=${365 * 24 * 3600}; SameSite=Lax`;
  }
  applyLanguage(lng);
  await i18n.changeLanguage(lng);
}

/** The current language (one of LANGUAGES). */
export function currentLanguage(): Language {
  return normalizeLanguage(i18n.language) ?? FALLBACK;
}

/** The antd locale of the current language (re-renders on language change). */
export function useAntdLocale(): Locale | undefined {
  const { i18n: inst } = useTranslation();
  const lng = normalizeLanguage(inst.language) ?? FALLBACK;
  return antdLocales.get(lng) ?? antdLocales.get(FALLBACK);
}

// A resource field's label in the UI language: fieldLabel in crud/resourceLabels.ts (from the definitions).

/** A menu title (Chinese, from the server) in the current language via `menu.json`, else unchanged. */
export function menuTitle(title: string | undefined | null): string {
  if (!title) return '';
  return i18n.t(title, { ns: 'menu', defaultValue: title, keySeparator: false, nsSeparator: false });
}

export { i18n };
// The navbar's language dropdown is `LanguageSwitcher` in ./LanguageSwitcher.tsx (kept out of this module so
// the login page does not load antd's Dropdown/Menu).
