import { timingSafeEqual } from 'node:crypto';
import { Signer } from '@fastify/cookie';

/** How many session ids' signatures a server keeps. */
const KEPT = 10_000;

/**
 * The session cookie's signer, which keeps the signatures of the session ids it has just signed or
 * checked: a signed-in request checks its cookie's signature and signs its session id again, two
 * HMACs that were a tenth of what a remembered session's request costs (decision 036). A signature
 * is compared in constant time, kept or not; one that does not match is checked in full.
 */
export function keptSignatures(secret: string): {
  sign(value: string): string;
  unsign(signed: string): ReturnType<Signer['unsign']>;
} {
  const signer = new Signer(secret, 'sha256');
  const kept = new Map<string, string>();
  const keep = (value: string, signed: string) => {
    if (kept.size >= KEPT) kept.clear();
    kept.set(value, signed);
  };
  return {
    sign(value) {
      let signed = kept.get(value);
      if (signed === undefined) keep(value, (signed = signer.sign(value)));
      return signed;
    },
    unsign(signed) {
      const value = signed.slice(0, Math.max(0, signed.lastIndexOf('.')));
      const known = kept.get(value);
      if (
        known !== undefined &&
        known.length === signed.length &&
        timingSafeEqual(Buffer.from(known), Buffer.from(signed))
      )
        return { valid: true, renew: false, value };
      const checked = signer.unsign(signed);
      if (checked.valid && !checked.renew) keep(checked.value, signed);
      return checked;
    },
  };
}
