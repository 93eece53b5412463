import { describe, expect, it } from 'vitest';
import { payLinkOf, payUrlOf, readPayLink } from './pay-links.ts';

const settings = { secret: 'a-secret-that-is-long-enough-for-links', publicUrl: 'https://pay.example.com', days: 30 };
const now = new Date('2031-03-01T10:00:00Z');

describe('pay links', () => {
  it('name their invoice and expiry, under a signature of the server secret', () => {
    const link = payLinkOf(4821, settings, now);
    expect(link.url).toBe(`https://pay.example.com/pay/${link.token}`);
    expect(link.expiresAt.toISOString()).toBe('2031-03-31T10:00:00.000Z');
    expect(readPayLink(link.token, settings.secret, now)).toEqual({
      invoiceId: 4821,
      expiresAt: link.expiresAt,
      expired: false,
    });
    expect(readPayLink(link.token, settings.secret, new Date('2031-03-31T10:00:00Z'))).toMatchObject({ expired: true });
  });

  it('are refused when tampered with, signed with another secret or malformed', () => {
    const { token } = payLinkOf(7, settings, now);
    const [id, expires, signature] = token.split('.') as [string, string, string];
    expect(readPayLink(`${(8).toString(36)}.${expires}.${signature}`, settings.secret, now)).toBeNull();
    expect(
      readPayLink(`${id}.${(parseInt(expires, 36) + 86_400).toString(36)}.${signature}`, settings.secret, now),
    ).toBeNull();
    expect(readPayLink(token, 'another-secret-that-is-long-enough', now)).toBeNull();
    for (const bad of [
      '',
      'x',
      `${id}.${expires}`,
      `${id}.${expires}.${signature}x`,
      `../${token}`,
      `0.${expires}.${signature}`,
    ])
      expect(readPayLink(bad, settings.secret, now)).toBeNull();
  });

  it('are left out of emails when card payments are not set up', () => {
    expect(payUrlOf(7, undefined, now)).toBe('');
    expect(payUrlOf(undefined, settings, now)).toBe('');
    expect(payUrlOf(7, settings, now)).toMatch(/^https:\/\/pay\.example\.com\/pay\//);
  });
});
