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
