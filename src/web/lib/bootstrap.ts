import type { Bootstrap } from '../../contract/auth.ts';

/** What the server put in the page: who is signed in and any flash from a form post. */
export function readBootstrap(): Bootstrap {
  const el = document.getElementById('tripdesk-bootstrap');
  try {
    const data = JSON.parse(el?.textContent ?? 'null') as Bootstrap | null;
    return data ?? { user: null, flash: [] };
  } catch {
    return { user: null, flash: [] };
  }
}
