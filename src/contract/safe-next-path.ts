// apart from paths.ts: the shell loads that on every page, this only the sign-in page and the server need

/**
 * Where to go after signing in: only a path of this site. A backslash or a control character
 * (which browsers drop or read as "/") could turn "/…" into "//another-site".
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return '/';
  for (const ch of next) {
    const code = ch.charCodeAt(0);
    if (ch === '\\' || code < 0x20 || code === 0x7f) return '/';
  }
  try {
    const u = new URL(next, 'https://tripdesk.invalid');
    return u.origin === 'https://tripdesk.invalid' ? u.pathname + u.search + u.hash : '/';
  } catch {
    return '/';
  }
}
