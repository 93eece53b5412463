import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CurrentUser } from '../../contract/auth.ts';
import { ApiError } from '../lib/api.ts';
import { cssVariables, theme } from '../lib/theme.ts';
import { SessionContext } from '../lib/session.tsx';

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
