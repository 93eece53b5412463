import '@mantine/core/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { readBootstrap } from './lib/bootstrap.ts';
import { csrfToken } from './lib/api.ts';
import { pushFlash } from './lib/flash.ts';

const boot = readBootstrap();
if (boot.flash.length) pushFlash(...boot.flash);
csrfToken();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers user={boot.user}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
