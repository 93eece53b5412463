import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariables, theme } from '../lib/theme.ts';
import { MyBookingPage, MyHome, SignInLinkPage, SignInPage } from './my-pages.tsx';
import { PayPage } from './pay-page.tsx';

// the traveller's side: its own small entry (phone first), none of the back office's code

/** The page for this address, with its title: /pay/{token}, /my and its pages. */
function route(pathname: string): { title: string; page: ReactNode } {
  const path = pathname.replace(/\/+$/, '') || '/';
  const pay = /^\/pay\/([^/]+)$/.exec(path);
  if (pay) return { title: 'Pay an invoice', page: <PayPage token={decodeURIComponent(pay[1]!)} /> };
  if (path === '/my') return { title: 'My bookings', page: <MyHome /> };
  if (path === '/my/sign-in') return { title: 'Sign in to your bookings', page: <SignInPage /> };
  const link = /^\/my\/sign-in\/([^/]+)$/.exec(path);
  if (link) return { title: 'Signing you in', page: <SignInLinkPage token={decodeURIComponent(link[1]!)} /> };
  const booking = /^\/my\/bookings\/(\d+)$/.exec(path);
  if (booking) return { title: 'My booking', page: <MyBookingPage id={Number(booking[1])} /> };
  return { title: 'Page not found', page: <p>Page not found.</p> };
}

const { title, page } = route(window.location.pathname);
document.title = title;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      {page}
    </MantineProvider>
  </StrictMode>,
);
