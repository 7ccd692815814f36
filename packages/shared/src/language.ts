/**
 * The UI languages and how a page load picks one (spec §2: the `language` cookie, then the browser's
 * languages, else English). The web app decides with it; the server uses it to hint that language's texts.
 */

export const LANGUAGES = [
  { code: 'zh', label: '简体中文', htmlLang: 'zh-CN' },
  { code: 'en', label: 'English', htmlLang: 'en' },
  { code: 'es', label: 'Español', htmlLang: 'es' },
  { code: 'ja', label: '日本語', htmlLang: 'ja' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Chinese: the default, and the fallback for texts another language lacks (always loaded). */
export const FALLBACK_LANGUAGE: Language = 'zh';
export const LANGUAGE_COOKIE = 'language';

/** Map any language tag (zh-CN, en-US, ja, es-419...) to a supported language, or null. */
export function normalizeLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const t = tag.trim().toLowerCase();
  for (const l of LANGUAGES) if (t === l.code || t.startsWith(`${l.code}-`) || t.startsWith(`${l.code}_`)) return l.code;
  return null;
}

/** The `language` cookie's value in a Cookie header / document.cookie, or null. */
export function languageCookie(cookies: string | null | undefined): string | null {
  const m = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(cookies ?? '');
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** Spec §2: the cookie's language, then the first supported browser language, else English. */
export function pickLanguage(cookieValue: string | null | undefined, browserLanguages: readonly string[]): Language {
  const fromCookie = normalizeLanguage(cookieValue);
  if (fromCookie) return fromCookie;
  for (const tag of browserLanguages) {
    const l = normalizeLanguage(tag);
    if (l) return l;
  }
  return 'en';
}

/** The languages of an Accept-Language header, most preferred first. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}
