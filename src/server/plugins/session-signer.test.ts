import { Signer } from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import { keptSignatures } from './session-signer.ts';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('the session cookie signer that keeps its signatures', () => {
  it('signs as the plain signer does, and checks a kept signature as it does', () => {
    const kept = keptSignatures(SECRET);
    const plain = new Signer(SECRET, 'sha256');
    const signed = kept.sign('session-id');
    expect(signed).toBe(plain.sign('session-id'));
    expect(kept.unsign(signed)).toEqual({ valid: true, renew: false, value: 'session-id' });
  });

  it('refuses a forged signature for an id it has kept, and one made with another secret', () => {
    const kept = keptSignatures(SECRET);
    const signed = kept.sign('session-id');
    const forged = `${signed.slice(0, -1)}${signed.endsWith('A') ? 'B' : 'A'}`;
    expect(kept.unsign(forged).valid).toBe(false);
    expect(kept.unsign('session-id').valid).toBe(false);
    expect(
      kept.unsign(new Signer('another-secret-of-at-least-32-characters!', 'sha256').sign('session-id')).valid,
    ).toBe(false);
    // a refused one is not kept: the right one still passes, a wrong one still fails
    expect(kept.unsign(signed).valid).toBe(true);
    expect(kept.unsign(forged).valid).toBe(false);
  });

  it('keeps a signature it checked from a cookie it did not sign itself', () => {
    const kept = keptSignatures(SECRET);
    const fromAnotherServer = new Signer(SECRET, 'sha256').sign('other-id');
    expect(kept.unsign(fromAnotherServer)).toEqual({ valid: true, renew: false, value: 'other-id' });
    expect(kept.unsign(`${fromAnotherServer}x`).valid).toBe(false);
  });
});
