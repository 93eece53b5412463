import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { PORTAL_LINK_DAYS } from '../../contract/my.ts';

/**
 * Portal links: the `{{ portal.url }}` of a chaser, reminder, invoice or documents email, a link
 * that signs its traveller in to the booking the email is about. Like pay links, nothing is
 * stored when one is made (every server reads every link, and an email rendered but never sent
 * leaves nothing behind): the token names the traveller, the booking and when it was made, and
 * is signed with a key made from the server's secret. Each works once (spending it records its
 * digest in sign_in_links, whose unique digest refuses a second use) and for PORTAL_LINK_DAYS;
 * decision 024 says why.
 */
export type PortalLinkSettings = { secret: string; publicUrl: string };

const SIGNATURE_LENGTH = 32;
const TOKEN = /^([0-9a-z]{1,10})\.([0-9a-z]{1,12})\.([0-9a-z]{1,10})\.([0-9a-z]{1,8})\.([A-Za-z0-9_-]{32})$/;

function signature(secret: string, body: string): string {
  const key = createHmac('sha256', secret).update('tripdesk portal links').digest();
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, SIGNATURE_LENGTH);
}

/** The link for an email about this booking to its traveller; '' when no link can be made. */
export function portalUrlOf(
  booking: { id: number; userId: number | null },
  settings: PortalLinkSettings | undefined,
  now: Date,
): string {
  if (!settings || booking.userId === null) return '';
  // a random part, so that two emails of one second carry two links, each spent on its own
  const nonce = randomInt(2 ** 40).toString(36);
  const body = `${booking.userId.toString(36)}.${booking.id.toString(36)}.${Math.floor(now.getTime() / 1000).toString(36)}.${nonce}`;
  return `${settings.publicUrl}/my/sign-in/${body}.${signature(settings.secret, body)}`;
}

/** What a preview of an email shows in the link's place: never a link that would sign anyone in. */
export const portalPreviewUrl = (settings: PortalLinkSettings | undefined) =>
  settings ? `${settings.publicUrl}/my/sign-in/a-link-made-for-each-email` : '';

export type PortalLinkReading = { userId: number; bookingId: number; issuedAt: Date; expiresAt: Date };

/** The traveller and booking a portal token names, or null when it is not one of ours (malformed or tampered with). */
export function readPortalLink(token: string, secret: string): PortalLinkReading | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [userId, bookingId, issued] = [match[1]!, match[2]!, match[3]!].map((part) => parseInt(part, 36)) as [
    number,
    number,
    number,
  ];
  if (![userId, bookingId, issued].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  const expected = Buffer.from(signature(secret, `${match[1]}.${match[2]}.${match[3]}.${match[4]}`));
  const given = Buffer.from(match[5]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const issuedAt = new Date(issued * 1000);
  return { userId, bookingId, issuedAt, expiresAt: new Date(issuedAt.getTime() + PORTAL_LINK_DAYS * 86_400_000) };
}

/** An email's text as the History keeps it: its sign-in links are credentials, so left out. */
export function withoutSignInLinks(text: string): string {
  return text.replace(/\/my\/sign-in\/[A-Za-z0-9_.-]+/g, '/my/sign-in/[link removed]');
}
