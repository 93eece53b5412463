import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariables, theme } from '../lib/theme.ts';
import { PayPage } from './pay-page.tsx';

// the traveller's side: its own small entry (phone first), none of the back office's code

/** The page for this address: /pay/{token}. */
function Page() {
  const pay = /^\/pay\/([^/]+)\/?$/.exec(window.location.pathname);
  if (pay) return <PayPage token={decodeURIComponent(pay[1]!)} />;
  return <p>Page not found.</p>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <Page />
    </MantineProvider>
  </StrictMode>,
);
