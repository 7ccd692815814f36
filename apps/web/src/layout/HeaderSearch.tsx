import { SearchOutlined } from '@ant-design/icons';
import { Select, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { scoreEntry } from '../app/fuzzy';
import { menuTitle } from '../app/i18n';
import type { RouteEntry } from '../app/menus';

/** Route search in the navbar: fuzzy over (translated and Chinese) titles and paths. */
export function HeaderSearch({ routes }: { routes: RouteEntry[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: titles follow the language
  const options = useMemo(() => {
    const candidates = routes.filter((r) => !r.hidden);
    const scored = candidates
      .map((r) => {
        const trail = [...r.parents.map((p) => p.title), r.title];
        const label = trail.map((x) => menuTitle(x)).join(' > ');
        const score = query ? scoreEntry(query, { titles: [label, trail.join(' > '), menuTitle(r.title), r.title], path: r.path }) : 1;
        return { value: r.path, label, score };
      })
      .filter((o) => o.score > 0);
    scored.sort((a, b) => b.score - a.score);
    return scored.map(({ value, label }) => ({ value, label }));
  }, [routes, query, i18n.language]);

  return (
    <span className={`app-header-search${open ? ' open' : ''}`}>
      <Tooltip title={t('navbar.search')} placement="bottom">
        <span
          className="app-navbar-action"
          role="button"
          aria-label={t('navbar.search')}
          onClick={() => setOpen((o) => !o)}
        >
          <SearchOutlined />
        </span>
      </Tooltip>
      {open && (
        <Select
          className="app-header-search-select"
          showSearch={{ filterOption: false, onSearch: setQuery, searchValue: query }}
          value={null}
          placeholder={t('navbar.searchPlaceholder')}
          options={options}
          onSelect={(path: string | null) => {
            if (path) navigate(path);
            setQuery('');
            setOpen(false);
          }}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
          autoFocus
          defaultOpen
          size="small"
          popupMatchSelectWidth={260}
          data-testid="header-search"
        />
      )}
    </span>
  );
}
