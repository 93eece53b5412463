import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { lazy, type ReactNode, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariables, theme } from '../lib/theme.ts';

// the traveller's side: its own small entry (phone first), none of the back office's code; each
// kind of page is its own chunk, so a payer on /pay downloads nothing of the booking page or /my
const PayPage = lazy(() => import('./pay-page.tsx').then((m) => ({ default: m.PayPage })));
const BookPage = lazy(() => import('./book-page.tsx').then((m) => ({ default: m.BookPage })));
const MyHome = lazy(() => import('./my-pages.tsx').then((m) => ({ default: m.MyHome })));
const SignInPage = lazy(() => import('./my-pages.tsx').then((m) => ({ default: m.SignInPage })));
const SignInLinkPage = lazy(() => import('./my-pages.tsx').then((m) => ({ default: m.SignInLinkPage })));
const MyBookingPage = lazy(() => import('./my-pages.tsx').then((m) => ({ default: m.MyBookingPage })));
const LeaderGroupPage = lazy(() => import('./group-page.tsx').then((m) => ({ default: m.LeaderGroupPage })));

/** The page for this address, with its title: /pay/{token}, /book/{slug}, /my and its pages. */
function route(pathname: string): { title: string; page: ReactNode } {
  const path = pathname.replace(/\/+$/, '') || '/';
  const pay = /^\/pay\/([^/]+)$/.exec(path);
  if (pay) return { title: 'Pay an invoice', page: <PayPage token={decodeURIComponent(pay[1]!)} /> };
  const book = /^\/book\/([^/]+)$/.exec(path);
  if (book) return { title: 'Book a trip', page: <BookPage slug={decodeURIComponent(book[1]!)} /> };
  if (path === '/my') return { title: 'My bookings', page: <MyHome /> };
  if (path === '/my/sign-in') return { title: 'Sign in to your bookings', page: <SignInPage /> };
  const link = /^\/my\/sign-in\/([^/]+)$/.exec(path);
  if (link) return { title: 'Signing you in', page: <SignInLinkPage token={decodeURIComponent(link[1]!)} /> };
  const booking = /^\/my\/bookings\/(\d+)$/.exec(path);
  if (booking) return { title: 'My booking', page: <MyBookingPage id={Number(booking[1])} /> };
  const group = /^\/my\/groups\/(\d+)$/.exec(path);
  if (group) return { title: 'My group', page: <LeaderGroupPage id={Number(group[1])} /> };
  return { title: 'Page not found', page: <p>Page not found.</p> };
}

const { title, page } = route(window.location.pathname);
document.title = title;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <Suspense fallback={null}>{page}</Suspense>
    </MantineProvider>
  </StrictMode>,
);
