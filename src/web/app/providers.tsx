import { createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CurrentUser } from '../../contract/auth.ts';
import { ApiError } from '../lib/api.ts';
import { SessionContext } from '../lib/session.tsx';

// shade 8 keeps white text on filled buttons above WCAG AA contrast (shade 6 is 3.5:1)
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
});

// dimmed text on white must stay readable: gray.7 instead of gray.6 (AA contrast)
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  // error text in red.9: red.8 is just under AA contrast on white
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
    },
  },
});

export function Providers({ user, children }: { user: CurrentUser | null; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <SessionContext.Provider value={user}>{children}</SessionContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
