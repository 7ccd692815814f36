import { Button, Empty, Input, Popover, Segmented, Spin, Tooltip } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuIcon, loadIconNames } from '../../app/icons';

/**
 * Menu icon picker over @ant-design/icons: every icon name, filtered by name and style, shown as a grid; the value is the icon's component name (e.g. 'TeamOutlined').
 */

type Style = 'Outlined' | 'Filled' | 'TwoTone';
// Rendering every icon at once is slow: show a page of matches, searching narrows it.
const MAX_SHOWN = 160;

export function IconPicker({ value, onChange, id }: { value?: string | null; onChange?: (v: string | null) => void; id?: string }) {
  const { t } = useTranslation('system');
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [style, setStyle] = useState<Style>('Outlined');
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    if (!open || names) return;
    let live = true;
    loadIconNames()
      .then((all) => live && setNames(all))
      .catch(() => live && setNames([]));
    return () => {
      live = false;
    };
  }, [open, names]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (names ?? []).filter((n) => n.endsWith(style) && (!q || n.toLowerCase().includes(q)));
  }, [names, query, style]);

  const grid = (
    <div className="icon-picker" data-testid="icon-picker">
      <Input value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('menu.iconSearch')} allowClear autoFocus style={{ marginBottom: 8 }} />
      <Segmented<Style>
        size="small"
        value={style}
        onChange={setStyle}
        options={[
          { value: 'Outlined', label: t('menu.iconOutlined') },
          { value: 'Filled', label: t('menu.iconFilled') },
          { value: 'TwoTone', label: t('menu.iconTwoTone') },
        ]}
        style={{ marginBottom: 8 }}
      />
      {names === null ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <div className="icon-picker-grid">
          {shown.slice(0, MAX_SHOWN).map((name) => {
            return (
              <Tooltip key={name} title={name} mouseEnterDelay={0.4}>
                <button
                  type="button"
                  className={`icon-picker-item${value === name ? ' is-active' : ''}`}
                  onClick={() => {
                    onChange?.(name);
                    setOpen(false);
                  }}
                  aria-label={name}
                >
                  <MenuIcon name={name} />
                </button>
              </Tooltip>
            );
          })}
          {shown.length > MAX_SHOWN && <div className="icon-picker-more">{t('menu.iconMore', { count: shown.length - MAX_SHOWN })}</div>}
        </div>
      )}
    </div>
  );

  return (
    <Popover content={grid} trigger="click" open={open} onOpenChange={setOpen} placement="bottomLeft" destroyOnHidden>
      <Input
        id={id}
        readOnly
        value={value ?? ''}
        placeholder={t('menu.chooseIcon')}
        prefix={<span style={{ width: 16, display: 'inline-flex' }}>{value ? <MenuIcon name={value} /> : null}</span>}
        suffix={
          value ? (
            <Button
              size="small"
              type="text"
              onClick={(e) => {
                e.stopPropagation();
                onChange?.(null);
              }}
            >
              {t('common.clear')}
            </Button>
          ) : null
        }
        style={{ cursor: 'pointer' }}
        data-testid="icon-input"
      />
    </Popover>
  );
}
