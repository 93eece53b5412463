import { describe, expect, it } from 'vitest';
import { PORTAL_LINK_DAYS, signInSchema } from '../../contract/my.ts';
import { portalPreviewUrl, portalUrlOf, readPortalLink, withoutSignInLinks } from './portal-links.ts';

const settings = { secret: 's'.repeat(40), publicUrl: 'https://trips.example.test' };
const now = new Date('2031-03-01T10:00:00Z');
const tokenOf = (url: string) => url.split('/my/sign-in/')[1]!;

describe('portal links', () => {
  it('name the traveller, the booking and when they were made, and are read back only with the secret', () => {
    const url = portalUrlOf({ id: 4321, userId: 77 }, settings, now);
    expect(url).toMatch(/^https:\/\/trips\.example\.test\/my\/sign-in\//);
    const token = tokenOf(url);
    expect(signInSchema.safeParse({ token }).success).toBe(true);
    expect(readPortalLink(token, settings.secret)).toEqual({
      userId: 77,
      bookingId: 4321,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + PORTAL_LINK_DAYS * 86_400_000),
    });
    expect(readPortalLink(token, 'another secret of forty characters, at least')).toBeNull();
    const [user, ...rest] = token.split('.');
    expect(
      readPortalLink([Number(parseInt(user!, 36) + 1).toString(36), ...rest].join('.'), settings.secret),
    ).toBeNull();
    expect(readPortalLink('not.a.link', settings.secret)).toBeNull();
  });

  it('differ for two emails of the same second, and are none without a traveller or settings', () => {
    const a = portalUrlOf({ id: 1, userId: 2 }, settings, now);
    expect(portalUrlOf({ id: 1, userId: 2 }, settings, now)).not.toBe(a);
    expect(portalUrlOf({ id: 1, userId: null }, settings, now)).toBe('');
    expect(portalUrlOf({ id: 1, userId: 2 }, undefined, now)).toBe('');
  });

  it('are left out of the History’s copy of an email, and a preview shows none that works', () => {
    const url = portalUrlOf({ id: 1, userId: 2 }, settings, now);
    const text = `Please add them here: ${url}\n\nThanks`;
    expect(withoutSignInLinks(text)).toBe(
      'Please add them here: https://trips.example.test/my/sign-in/[link removed]\n\nThanks',
    );
    const preview = tokenOf(portalPreviewUrl(settings));
    expect(signInSchema.safeParse({ token: preview }).success).toBe(false);
  });
});
