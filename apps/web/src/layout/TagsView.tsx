import { CloseCircleOutlined, CloseOutlined, DownOutlined, ReloadOutlined, SwapOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuTitle } from '../app/i18n';
import { type VisitedTab, closeAllTabs, closeOtherTabs, closeTab, useVisitedTabs } from './tabs';

/** The visited-tags bar: click to switch, × to close, right-click or the ▾ button for refresh / close others / close all. */
export function TagsView({ activePath, homePath }: { activePath: string; homePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tabs = useVisitedTabs();

  const goToLast = (remaining: VisitedTab[]) => {
    const last = remaining[remaining.length - 1];
    navigate(last ? last.fullPath : homePath);
  };

  const act = (action: string, tab: VisitedTab) => {
    switch (action) {
      case 'refresh':
        navigate(`/redirect${tab.fullPath}`, { replace: true });
        break;
      case 'close': {
        const remaining = closeTab(tab.path);
        if (tab.path === activePath && !tab.affix) goToLast(remaining);
        break;
      }
      case 'closeOthers':
        closeOtherTabs(tab.path);
        if (tab.path !== activePath) navigate(tab.fullPath);
        break;
      case 'closeAll': {
        const remaining = closeAllTabs();
        if (!remaining.some((r) => r.path === activePath)) goToLast(remaining);
        break;
      }
    }
  };

  const menuFor = (tab: VisitedTab): MenuProps => ({
    items: [
      { key: 'refresh', icon: <ReloadOutlined />, label: t('tags.refresh') },
      { key: 'close', icon: <CloseOutlined />, label: t('tags.close'), disabled: tab.affix },
      { key: 'closeOthers', icon: <SwapOutlined />, label: t('tags.closeOthers') },
      { key: 'closeAll', icon: <CloseCircleOutlined />, label: t('tags.closeAll') },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      act(key, tab);
    },
  });

  const active = tabs.find((x) => x.path === activePath);

  return (
    <div className="app-tags" data-testid="tags-view">
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activePath}
        onChange={(key) => {
          const tab = tabs.find((x) => x.path === key);
          if (tab) navigate(tab.fullPath);
        }}
        onEdit={(key, action) => {
          const tab = tabs.find((x) => x.path === key);
          if (action === 'remove' && tab) act('close', tab);
        }}
        items={tabs.map((tab) => ({
          key: tab.path,
          closable: !tab.affix,
          label: (
            <Dropdown trigger={['contextMenu']} menu={menuFor(tab)}>
              <span data-tab={tab.path}>{menuTitle(tab.title)}</span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={
          active ? (
            <Dropdown trigger={['click']} menu={menuFor(active)} placement="bottomRight">
              <span className="app-tags-actions" role="button" aria-label={t('tags.actions')} data-testid="tags-actions">
                <DownOutlined />
              </span>
            </Dropdown>
          ) : null
        }
      />
    </div>
  );
}
