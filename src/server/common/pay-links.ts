import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Pay links: `/pay/{token}`, a token naming one invoice and when the link stops working,
 * signed with a key made from the server's secret. Nothing is stored, so every server reads
 * every link; whether the invoice may still be paid (not paid, not deleted, its booking not
 * cancelled) is the reader's to check, at the moment the link is used.
 */
export type PayLinkSettings = { secret: string; publicUrl: string; days: number };
export type PayLink = { url: string; token: string; expiresAt: Date };

const SIGNATURE_LENGTH = 32;

// the signing key made from the server's secret, made once per secret
const keys = new Map<string, Buffer>();
function keyOf(secret: string, purpose: string): Buffer {
  let key = keys.get(`${purpose}\0${secret}`);
  if (!key) {
    key = createHmac('sha256', secret).update(purpose).digest();
    keys.set(`${purpose}\0${secret}`, key);
  }
  return key;
}

function signature(secret: string, invoiceId: number, expires: number): string {
  const key = keyOf(secret, 'tripdesk pay links');
  return createHmac('sha256', key).update(`${invoiceId}:${expires}`).digest('base64url').slice(0, SIGNATURE_LENGTH);
}

export function payLinkOf(invoiceId: number, settings: PayLinkSettings, now: Date): PayLink {
  const expires = Math.floor(now.getTime() / 1000) + settings.days * 86_400;
  const token = `${invoiceId.toString(36)}.${expires.toString(36)}.${signature(settings.secret, invoiceId, expires)}`;
  return { url: `${settings.publicUrl}/pay/${token}`, token, expiresAt: new Date(expires * 1000) };
}

/** The invoice's pay link for an email or a printed invoice; '' when card payments are not set up. */
export function payUrlOf(invoiceId: number | undefined, settings: PayLinkSettings | undefined, now: Date): string {
  return settings && invoiceId !== undefined ? payLinkOf(invoiceId, settings, now).url : '';
}

export type PayLinkReading = { invoiceId: number; expiresAt: Date; expired: boolean } | null;

/** The invoice a token names, or null when it is not one of ours (malformed or tampered with). */
export function readPayLink(token: string, secret: string, now: Date): PayLinkReading {
  const match = /^([0-9a-z]{1,10})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const invoiceId = parseInt(match[1]!, 36);
  const expires = parseInt(match[2]!, 36);
  if (!Number.isSafeInteger(invoiceId) || invoiceId < 1 || invoiceId > 2_147_483_647) return null;
  const expected = Buffer.from(signature(secret, invoiceId, expires));
  const given = Buffer.from(match[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { invoiceId, expiresAt: new Date(expires * 1000), expired: expires * 1000 <= now.getTime() };
}

/**
 * A school group's pay link (issue 37): `/pay/grp.{id}.{expires}.{signature}`, paying what the
 * school owes on its group invoice; signed apart from invoice links, so one can never be read
 * as the other.
 */
function groupSignature(secret: string, groupId: number, expires: number): string {
  const key = keyOf(secret, 'tripdesk group pay links');
  return createHmac('sha256', key).update(`${groupId}:${expires}`).digest('base64url').slice(0, SIGNATURE_LENGTH);
}

export function groupPayLinkOf(groupId: number, settings: PayLinkSettings, now: Date): PayLink {
  const expires = Math.floor(now.getTime() / 1000) + settings.days * 86_400;
  const token = `grp.${groupId.toString(36)}.${expires.toString(36)}.${groupSignature(settings.secret, groupId, expires)}`;
  return { url: `${settings.publicUrl}/pay/${token}`, token, expiresAt: new Date(expires * 1000) };
}

export const isGroupPayToken = (token: string) => token.startsWith('grp.');

export type GroupPayLinkReading = { groupId: number; expiresAt: Date; expired: boolean } | null;

/** The group a group pay link names, or null when it is not one of ours. */
export function readGroupPayLink(token: string, secret: string, now: Date): GroupPayLinkReading {
  const match = /^grp\.([0-9a-z]{1,10})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const groupId = parseInt(match[1]!, 36);
  const expires = parseInt(match[2]!, 36);
  if (!Number.isSafeInteger(groupId) || groupId < 1 || groupId > 2_147_483_647) return null;
  const expected = Buffer.from(groupSignature(secret, groupId, expires));
  const given = Buffer.from(match[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { groupId, expiresAt: new Date(expires * 1000), expired: expires * 1000 <= now.getTime() };
}
