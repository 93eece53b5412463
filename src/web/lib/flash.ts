/**
 * Spec §3 Flash message: a one-time queue shown on the next screen that reads it, then
 * emptied. Kept in sessionStorage so a reload between the two screens loses nothing.
 */
const KEY = 'tripdesk.flash';

function read(): string[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function pushFlash(...messages: string[]): void {
  sessionStorage.setItem(KEY, JSON.stringify([...read(), ...messages]));
}

/** Returns the queued messages and empties the queue. */
export function takeFlash(): string[] {
  const messages = read();
  sessionStorage.removeItem(KEY);
  return messages;
}

export const FLASH_EVENT = 'tripdesk:flash';

/** Shows messages on the screen that is open now (after a change that stays on it). */
export function showFlash(...messages: string[]): void {
  pushFlash(...messages);
  window.dispatchEvent(new Event(FLASH_EVENT));
}
