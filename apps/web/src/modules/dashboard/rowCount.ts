import { useTranslation } from 'react-i18next';

/**
 * One way to say how many rows (U10): below 10,000 the number itself ("5条", "5 rows"), from 10,000 the
 * language's compact form (1.23万条, 12.35K rows, 12,35 mil filas); never "0.00 万条" for five rows.
 */
export const COMPACT_FROM = 10_000;
const LOCALE: Record<string, string> = { zh: 'zh-CN', ja: 'ja-JP', en: 'en', es: 'es' };

export function rowCountValue(rows: number, language: string): string {
  const locale = LOCALE[language.slice(0, 2)] ?? 'zh-CN';
  const n = Number.isFinite(rows) ? Math.max(0, Math.round(rows)) : 0;
  return n < COMPACT_FROM ? new Intl.NumberFormat(locale).format(n) : new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 }).format(n);
}

/** `(rows) => "5条"` in the current language (the unit and its plural from home.json). */
export function useRowCount(): (rows: number) => string {
  const { t, i18n } = useTranslation('home');
  return (rows) => t('rowCount', { count: Math.round(rows), value: rowCountValue(rows, i18n.language ?? 'zh') });
}
