import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, withQuery } from './api.ts';

const calls: Array<{ url: string; init: RequestInit }> = [];
let reply: Response;
beforeEach(() => {
  calls.length = 0;
  reply = new Response(null, { status: 204 });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return reply;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
});

describe('the api client', () => {
  it('sends the XMLHttpRequest marker and the page’s CSRF token on every call', async () => {
    document.head.innerHTML = '<meta name="csrf-token" content="tok-123">';
    await api('/api/charities', { method: 'POST', body: { name: 'x' } });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(headers['X-CSRF-TOKEN']).toBe('tok-123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"name":"x"}');
  });

  it('logs a console error, once, when the page has no token, and still makes the call', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await api('/api/a');
    await api('/api/b');
    expect(calls).toHaveLength(2);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toContain('CSRF token not found');
  });

  it('turns a 422 into an ApiError with the message and the field errors', async () => {
    document.head.innerHTML = '<meta name="csrf-token" content="t">';
    reply = new Response(
      JSON.stringify({ message: 'The name field is required.', errors: { name: ['The name field is required.'] } }),
      { status: 422 },
    );
    const error = await api('/api/charities', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).errors).toEqual({ name: ['The name field is required.'] });
  });

  it('builds query strings without empty values, with arrays as name[]', () => {
    expect(withQuery('/api/bookings', { page: 2, name: '', trips: [3, 4], user_id: undefined })).toBe(
      '/api/bookings?page=2&trips%5B%5D=3&trips%5B%5D=4',
    );
  });
});
