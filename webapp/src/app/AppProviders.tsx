import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { SWRConfig, type Cache } from 'swr';
import { i18n } from '@/i18n';
import { theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  /** A fresh SWR cache per test keeps tests apart; the app uses SWR's global cache. */
  swrCache?: () => Cache;
}

/** Theme, notifications, modals, translations and data fetching around the whole app. */
export function AppProviders({ children, swrCache }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <SWRConfig value={swrCache ? { provider: swrCache } : {}}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <Notifications position="bottom-right" zIndex={1000} />
          <ModalsProvider>{children}</ModalsProvider>
        </MantineProvider>
      </SWRConfig>
    </I18nextProvider>
  );
}
