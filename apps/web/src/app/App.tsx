import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import { useMemo, useState } from 'react';
import { RouterProvider } from 'react-router';
import { AuthProvider } from './auth';
import { FeedbackBridge } from './feedback';
import { useAntdLocale } from './i18n';
import { queryClient } from './queryClient';
import { createAppRouter } from './router';
import { SettingsProvider, useSettings } from './settings';

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif";

function ThemedApp() {
  const { settings } = useSettings();
  const locale = useAntdLocale();
  const [router] = useState(createAppRouter);
  const themeConfig = useMemo(
    () => ({
      // antd's component styles come from its static antd.css (imported in main.tsx) instead of being
      // generated in the browser on first use: that generation was a third of the CPU time to the first screen.
      // The theme still works: tokens are CSS variables that antd sets at runtime from this config. The build
      // leaves the unused style generators out (build/antdStaticStyles.ts).
      zeroRuntime: true,
      algorithm: settings.darkMode ? theme.darkAlgorithm : theme.defaultAlgorithm,
      token: { colorPrimary: settings.themeColor, fontFamily: FONT_FAMILY },
    }),
    [settings.darkMode, settings.themeColor],
  );
  return (
    <ConfigProvider locale={locale} theme={themeConfig} componentSize={settings.componentSize}>
      <AntApp>
        <FeedbackBridge />
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </AntApp>
    </ConfigProvider>
  );
}

/** The whole web app: query cache, layout settings, antd theme/locale, session, router. */
export default function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SettingsProvider>
        <ThemedApp />
      </SettingsProvider>
    </QueryClientProvider>
  );
}
