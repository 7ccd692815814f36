import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';

/**
 * i18next set-up. Resources are the JSON files `src/locales/<lng>/<namespace>.json` (namespace = file name),
 * loaded lazily per language; Chinese is always loaded because it is the fallback. The antd locale and the
 * dayjs locale follow the language.
 */

export const LANGUAGES = [
  { code: 'zh', label: '简体中文', htmlLang: 'zh-CN' },
  { code: 'en', label: 'English', htmlLang: 'en' },
  { code: 'es', label: 'Español', htmlLang: 'es' },
  { code: 'ja', label: '日本語', htmlLang: 'ja' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const LANGUAGE_COOKIE = 'language';
const FALLBACK: Language = 'zh';

const bundleLoaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

function bundlesOf(lng: Language): { ns: string; load: () => Promise<{ default: Record<string, unknown> }> }[] {
  const out: { ns: string; load: () => Promise<{ default: Record<string, unknown> }> }[] = [];
  for (const [path, load] of Object.entries(bundleLoaders)) {
    const m = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (m && m[1] === lng) out.push({ ns: m[2], load });
  }
  return out;
}

/** Every namespace found under src/locales/zh. */
export const NAMESPACES: string[] = bundlesOf('zh').map((b) => b.ns);

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

/** Map any language tag (zh-CN, en-US, ja, es-419...) to a supported language, or null. */
export function normalizeLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const t = tag.toLowerCase();
  for (const l of LANGUAGES) if (t === l.code || t.startsWith(`${l.code}-`) || t.startsWith(`${l.code}_`)) return l.code;
  return null;
}

/** Spec §2: the `language` cookie, then the browser language, else English. */
export function detectLanguage(): Language {
  if (typeof document !== 'undefined') {
    const m = /(?:^|;\s*)language=([^;]*)/.exec(document.cookie);
    const fromCookie = normalizeLanguage(m ? decodeURIComponent(m[1]) : null);
    if (fromCookie) return fromCookie;
  }
  if (typeof navigator !== 'undefined') {
    for (const tag of [...(navigator.languages ?? []), navigator.language]) {
      const l = normalizeLanguage(tag);
      if (l) return l;
    }
  }
  return 'en';
}

async function loadLanguage(lng: Language): Promise<void> {
  if (!loadedLanguages.has(lng)) {
    const bundles = await Promise.all(bundlesOf(lng).map(async (b) => [b.ns, (await b.load()).default] as const));
    for (const [ns, data] of bundles) i18n.addResourceBundle(lng, ns, data, true, true);
    loadedLanguages.add(lng);
  }
  if (!antdLocales.has(lng)) {
    const [antd] = await Promise.all([antdLocaleLoaders[lng](), dayjsLocaleLoaders[lng]()]);
    antdLocales.set(lng, antd.default);
  }
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
        ns: NAMESPACES,
        defaultNS: 'common',
        resources: {},
        partialBundledLanguages: true,
        interpolation: { escapeValue: false },
        returnNull: false,
        react: { useSuspense: false },
      });
      await Promise.all([loadLanguage(FALLBACK), loadLanguage(lng)]);
      applyLanguage(lng);
      // re-emit so components rendered before the bundles arrived pick them up
      await i18n.changeLanguage(lng);
      return i18n;
    })();
  }
  return initPromise;
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

/** Label of a resource field: the definition's Chinese label, or `fields:<resource>.<field>` in en/es/ja. */
export function fieldLabel(resourceName: string, field: { name: string; label: string }): string {
  return i18n.t(`fields:${resourceName}.${field.name}`, { defaultValue: field.label });
}

/** A menu title (Chinese, from the server) in the current language via `menu.json`, else unchanged. */
export function menuTitle(title: string | undefined | null): string {
  if (!title) return '';
  return i18n.t(title, { ns: 'menu', defaultValue: title, keySeparator: false, nsSeparator: false });
}

export { i18n };
// The navbar's language dropdown is `LanguageSwitcher` in ./LanguageSwitcher.tsx (kept out of this module so
// the login page does not load antd's Dropdown/Menu).
