import { Button, ColorPicker, Divider, Drawer, Segmented, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type LayoutSettings, useSettings } from '../app/settings';

const PRESET_COLORS = ['#409EFF', '#1890ff', '#304156', '#212121', '#11a983', '#13c2c2', '#6959CD', '#f5222d'];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="app-settings-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

/** Layout settings: theme colour, dark mode, fixed header, tags view, sidebar logo, component size. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update, reset } = useSettings();
  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={300} data-testid="settings-drawer">
      <Row label={t('settings.themeColor')}>
        <ColorPicker
          value={settings.themeColor}
          disabledAlpha
          presets={[{ label: t('settings.themeColor'), colors: PRESET_COLORS }]}
          onChangeComplete={(c) => update({ themeColor: c.toHexString() })}
        />
      </Row>
      <Row label={t('settings.darkMode')}>
        <Switch checked={settings.darkMode} onChange={(v) => update({ darkMode: v })} />
      </Row>
      <Divider />
      <Row label={t('settings.fixedHeader')}>
        <Switch checked={settings.fixedHeader} onChange={(v) => update({ fixedHeader: v })} />
      </Row>
      <Row label={t('settings.tagsView')}>
        <Switch checked={settings.tagsView} onChange={(v) => update({ tagsView: v })} />
      </Row>
      <Row label={t('settings.sidebarLogo')}>
        <Switch checked={settings.sidebarLogo} onChange={(v) => update({ sidebarLogo: v })} />
      </Row>
      <Row label={t('settings.componentSize')}>
        <Segmented<LayoutSettings['componentSize']>
          size="small"
          value={settings.componentSize}
          onChange={(v) => update({ componentSize: v })}
          options={[
            { value: 'large', label: t('settings.sizeLarge') },
            { value: 'middle', label: t('settings.sizeMiddle') },
            { value: 'small', label: t('settings.sizeSmall') },
          ]}
        />
      </Row>
      <Divider />
      <Button block onClick={reset}>
        {t('settings.reset')}
      </Button>
    </Drawer>
  );
}
