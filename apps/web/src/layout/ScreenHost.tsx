import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Spin } from 'antd';
import { Component, type ErrorInfo, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordError } from '../app/errorLog';
import { ScreenContext, resolveScreen } from '../app/screens';
import type { VisitedTab } from './tabs';

class ScreenErrorBoundary extends Component<{ children: ReactNode; fallback: (retry: () => void, error: Error) => ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error, _info: ErrorInfo) {
    recordError(error);
  }
  render() {
    if (this.state.error) return this.props.fallback(() => this.setState({ error: null }), this.state.error);
    return this.props.children;
  }
}

/**
 * A screen's code file could not be loaded: after a deployment the old file names are gone, so 重试 cannot help
 * and only a reload fetches the new ones. Browsers word it differently (Chrome, Firefox, Safari, Vite's preload).
 */
export function isChunkLoadError(error: Error): boolean {
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(error.message)
  );
}

export function ScreenFailed({ error, retry }: { error: Error; retry: () => void }) {
  const { t } = useTranslation();
  if (isChunkLoadError(error)) {
    // U21: no raw English from the browser; say what helps
    return (
      <Result
        status="warning"
        title={t('screenLoadFailed')}
        subTitle={t('screenLoadFailedHint')}
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => window.location.reload()} data-testid="screen-reload">
            {t('actions.reloadPage')}
          </Button>
        }
      />
    );
  }
  return (
    <Result
      status="error"
      title={t('screenError')}
      subTitle={error.message}
      extra={
        <Button icon={<ReloadOutlined />} onClick={retry}>
          {t('actions.retry')}
        </Button>
      }
    />
  );
}

/** One open tab's screen: mounted while the tab is open, hidden when another tab is active. */
export function ScreenHost({ tab, active }: { tab: VisitedTab; active: boolean }) {
  const Screen = useMemo(() => resolveScreen(tab.component), [tab.component]);
  const info = useMemo(() => ({ path: tab.path, active }), [tab.path, active]);
  // A tab restored or pinned in the background (the dashboard) is mounted the first time it is shown, not
  // before: its code and requests would otherwise compete with the screen the user actually opened.
  // Once mounted it stays mounted, so switching tabs keeps its state.
  const [shown, setShown] = useState(active);
  if (active && !shown) setShown(true);
  if (!shown) return <div className="app-screen" style={{ display: 'none' }} data-screen={tab.path} data-active={false} />;
  return (
    <div className="app-screen" style={active ? undefined : { display: 'none' }} data-screen={tab.path} data-active={active}>
      <ScreenContext.Provider value={info}>
        <ScreenErrorBoundary fallback={(retry, error) => <ScreenFailed error={error} retry={retry} />}>
          <Suspense
            fallback={
              <div className="app-screen-loading">
                <Spin />
              </div>
            }
          >
            <Screen />
          </Suspense>
        </ScreenErrorBoundary>
      </ScreenContext.Provider>
    </div>
  );
}
