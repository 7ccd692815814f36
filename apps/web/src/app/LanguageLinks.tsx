import { useTranslation } from 'react-i18next';
import { LANGUAGES, changeLanguage, normalizeLanguage } from './i18n';

/** Plain inline language links (login page: no dropdown code needed there). */
export function LanguageLinks({ className }: { className?: string }) {
  const { i18n } = useTranslation();
  const current = normalizeLanguage(i18n.language) ?? 'zh';
  return (
    <div className={className} data-testid="language-links">
      {LANGUAGES.map((l) => (
        <button
          key={l.code}
          type="button"
          lang={l.htmlLang}
          aria-pressed={l.code === current}
          className={l.code === current ? 'active' : undefined}
          onClick={() => void changeLanguage(l.code)}
        >
          {l.label}
        </button>
      ))}
    </div>
  );
}
