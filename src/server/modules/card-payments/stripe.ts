import Stripe from 'stripe';

export { Stripe };

/**
 * The official client, pointed at Stripe, or at STRIPE_API_BASE (a local stand-in in the tests,
 * a staging double). Its own retries carry an idempotency key; every write of ours names one too.
 */
export function createStripe(config: { secretKey: string; apiBase?: string | undefined }): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Tripdesk' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}
