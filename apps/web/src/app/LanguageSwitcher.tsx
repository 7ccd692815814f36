import { TranslationOutlined } from '@ant-design/icons';
import { Dropdown, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, changeLanguage, normalizeLanguage } from './i18n';

/** Globe button with the four languages (zh, en, es, ja); the choice is kept in the `language` cookie. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = normalizeLanguage(i18n.language) ?? 'zh';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((l) => ({ key: l.code, label: l.label })),
        onClick: ({ key }) => void changeLanguage(key as Language),
      }}
    >
      <Tooltip title={t('navbar.language')} placement="left">
        <span className={className} role="button" aria-label={t('navbar.language')} data-testid="language-switcher">
          <TranslationOutlined />
        </span>
      </Tooltip>
    </Dropdown>
  );
}
