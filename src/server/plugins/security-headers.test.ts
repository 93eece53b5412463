import { describe, expect, it } from 'vitest';
import { helmetHeaders } from './security-headers.ts';

describe('the security headers, worked out once', () => {
  it("are helmet's for the options, without X-Powered-By", () => {
    const headers = helmetHeaders({ contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } } });
    expect(headers['content-security-policy']).toContain("img-src 'self' data:");
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers).not.toHaveProperty('x-powered-by');
  });

  it('refuse a directive that would differ from one request to the next (a nonce)', () => {
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => "'nonce-x'"] } } }),
    ).toThrow(/depends on the request/);
  });
});
