/**
 * The one way the web app talks to the server: JSON, the XMLHttpRequest marker, and the
 * CSRF token from the page's <meta name="csrf-token"> on every call (spec §7).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> | undefined,
    readonly body: unknown,
  ) {
    super(message);
  }
}

let warned = false;
export function csrfToken(): string | undefined {
  const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (!token && !warned) {
    warned = true;
    // spec §8: a page without the token only logs this
    console.error('CSRF token not found: the page has no <meta name="csrf-token">.');
  }
  return token;
}

type Options = {
  method?: string;
  body?: unknown;
  query?: Record<string, unknown>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

export function withQuery(url: string, query?: Record<string, unknown>): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(`${key}[]`, String(v));
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

export async function api<T>(url: string, options: Options = {}): Promise<T> {
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const token = csrfToken();
  if (token) headers['X-CSRF-TOKEN'] = token;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(withQuery(url, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const obj = (data && typeof data === 'object' ? data : {}) as {
      message?: string;
      errors?: Record<string, string[]>;
    };
    throw new ApiError(res.status, obj.message ?? res.statusText, obj.errors, data);
  }
  return data as T;
}
