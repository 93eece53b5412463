import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariables, theme } from '../lib/theme.ts';
import { MyBookingPage, MyHome, SignInLinkPage, SignInPage } from './my-pages.tsx';
import { PayPage } from './pay-page.tsx';

// the traveller's side: its own small entry (phone first), none of the back office's code

/** The page for this address: /pay/{token}, /my and its pages. */
function Page() {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  const pay = /^\/pay\/([^/]+)$/.exec(path);
  if (pay) return <PayPage token={decodeURIComponent(pay[1]!)} />;
  if (path === '/my') return <MyHome />;
  if (path === '/my/sign-in') return <SignInPage />;
  const link = /^\/my\/sign-in\/([^/]+)$/.exec(path);
  if (link) return <SignInLinkPage token={decodeURIComponent(link[1]!)} />;
  const booking = /^\/my\/bookings\/(\d+)$/.exec(path);
  if (booking) return <MyBookingPage id={Number(booking[1])} />;
  return <p>Page not found.</p>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <Page />
    </MantineProvider>
  </StrictMode>,
);
