import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dir = () => mkdtempSync(path.join(os.tmpdir(), 'tripdesk-config-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dataDir = dir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir,
      databaseUrl: undefined,
      seedDemo: true,
      trustProxy: false,
      loginRateLimit: 30,
      bookingBurst: 2,
    });
    expect(loadConfig({ DATA_DIR: dataDir, BOOKING_BURST: '0' }).bookingBurst).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dataDir, BOOKING_BURST: 'many' })).toThrow(
      /BOOKING_BURST: must be a whole number from 0 to 1000/,
    );
    expect(config.sessionIdleMs).toBe(120 * 60_000);
    expect(config.sessionAbsoluteMs).toBe(12 * 3_600_000);
  });

  it('reads the fundraising defaults: minimums in pounds, milestones as percent:weeks, earliest first', () => {
    expect(loadConfig({ DATA_DIR: dir() }).fundraisingDefaults).toEqual({
      minimumPence: { fundraise: 250_000, flexi: 125_000 },
      milestones: [
        { percent: 50, weeks_before: 16 },
        { percent: 80, weeks_before: 12 },
        { percent: 100, weeks_before: 4 },
      ],
    });
    expect(
      loadConfig({ DATA_DIR: dir(), FUNDRAISING_MINIMUM: '3000', FUNDRAISING_MILESTONES: '100:6, 60:20' })
        .fundraisingDefaults,
    ).toEqual({
      minimumPence: { fundraise: 300_000, flexi: 125_000 },
      milestones: [
        { percent: 60, weeks_before: 20 },
        { percent: 100, weeks_before: 6 },
      ],
    });
    expect(() => loadConfig({ DATA_DIR: dir(), FUNDRAISING_MILESTONES: '50%:16' })).toThrow(
      /FUNDRAISING_MILESTONES: must be percent:weeks pairs/,
    );
    expect(() => loadConfig({ DATA_DIR: dir(), FUNDRAISING_MILESTONES: '150:16' })).toThrow(
      /FUNDRAISING_MILESTONES: each percentage must be 1 to 100/,
    );
  });

  it('makes a session secret once and keeps it in DATA_DIR, readable by the owner only', () => {
    const dataDir = dir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
    const file = path.join(dataDir, 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('does not seed the demo office in production unless asked', () => {
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), NODE_ENV: 'production', SEED_DEMO: '1' }).seedDemo).toBe(true);
  });

  it('names every bad value in one message, without echoing secrets', () => {
    let message = '';
    try {
      loadConfig({
        DATA_DIR: dir(),
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SESSION_SECRET: 'short',
        ADMIN_EMAIL: 'not-an-email',
        ADMIN_PASSWORD: 'tiny',
        SMTP_URL: 'http://mail',
        SEED_DEMO: 'maybe',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('PORT: must be a port number from 1 to 65535 (got "eighty")');
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('SESSION_SECRET: must be at least 32 characters long');
    expect(message).toContain('ADMIN_EMAIL: must be an email address');
    expect(message).toContain('ADMIN_PASSWORD: must be at least 12 characters long');
    expect(message).toContain('SMTP_URL: must be an smtp:// or smtps:// URL');
    expect(message).toContain('SEED_DEMO: must be 1 or 0 (or true/false)');
    expect(message).not.toContain('short');
    expect(message).not.toContain('tiny');
  });

  it('sets card payments up only with both Stripe secrets, and makes links from PUBLIC_URL', () => {
    const off = loadConfig({ DATA_DIR: dir(), PORT: '4000' });
    expect(off).toMatchObject({ stripe: undefined, publicUrl: 'http://localhost:4000', payLinkDays: 30 });
    const on = loadConfig({
      DATA_DIR: dir(),
      STRIPE_SECRET_KEY: 'sk_live_abcdefgh',
      STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh',
      PUBLIC_URL: 'https://book.example.com/',
      PAY_LINK_DAYS: '14',
    });
    expect(on).toMatchObject({
      stripe: { secretKey: 'sk_live_abcdefgh', webhookSecret: 'whsec_abcdefgh', apiBase: undefined },
      publicUrl: 'https://book.example.com',
      payLinkDays: 14,
    });
    expect(() => loadConfig({ DATA_DIR: dir(), STRIPE_SECRET_KEY: 'sk_live_abcdefgh' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY/,
    );
    // links to localhost in travellers' emails would lead nowhere
    expect(() =>
      loadConfig({ DATA_DIR: dir(), STRIPE_SECRET_KEY: 'sk_live_abcdefgh', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh' }),
    ).toThrow(/PUBLIC_URL: must be set with STRIPE_SECRET_KEY/);
    const bad = (() => {
      try {
        loadConfig({
          DATA_DIR: dir(),
          STRIPE_SECRET_KEY: 'sk live secret',
          STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh',
          PUBLIC_URL: 'ftp://x',
          STRIPE_API_BASE: 'nope',
          PAY_LINK_DAYS: '400',
        });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(bad).toMatch(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(bad).not.toContain('sk live secret');
    expect(bad).toMatch(/PUBLIC_URL: must be an http/);
    expect(bad).toMatch(/STRIPE_API_BASE: must be an http/);
    expect(bad).toMatch(/PAY_LINK_DAYS: must be at most 365 days/);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), ADMIN_EMAIL: 'a@b.test' })).toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD must be set together/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATA_DIR: dir(), PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it('reads the operations settings: shutdown grace, metrics token and allowed addresses', () => {
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({
      shutdownGraceSeconds: 25,
      metricsToken: undefined,
      metricsAllow: [],
    });
    const token = 'a-scraper-token-of-32-characters';
    expect(
      loadConfig({
        DATA_DIR: dir(),
        SHUTDOWN_GRACE_SECONDS: '5',
        METRICS_TOKEN: token,
        METRICS_ALLOW: ' 10.0.0.5, 192.168.0.0/16,::1 ,fd00::/8',
      }),
    ).toMatchObject({
      shutdownGraceSeconds: 5,
      metricsToken: token,
      metricsAllow: ['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8'],
    });
  });

  it("refuses TRUST_PROXY=true, asking for the proxies' addresses, and takes a list of them", () => {
    for (const every of ['true', 'TRUE', ' yes ']) {
      expect(() => loadConfig({ DATA_DIR: dir(), TRUST_PROXY: every }), every).toThrow(
        /TRUST_PROXY: cannot be true \(that would believe any client about its own address\): give the proxies' addresses/,
      );
    }
    expect(() => loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'my-proxy.local' })).toThrow(
      /TRUST_PROXY: must be the proxies' IP addresses or CIDR ranges/,
    );
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,loopback' }).trustProxy).toBe(
      '10.0.0.5,192.168.0.0/16,loopback',
    );
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('refuses bad operations settings, naming each, without echoing the metrics token', () => {
    let message = '';
    try {
      loadConfig({
        DATA_DIR: dir(),
        SHUTDOWN_GRACE_SECONDS: '0',
        METRICS_TOKEN: 'short-secret',
        METRICS_ALLOW: '10.0.0.5,localhost',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('SHUTDOWN_GRACE_SECONDS: must be a whole number of seconds from 1 to 600 (got "0")');
    expect(message).toContain('METRICS_TOKEN: must be 24 to 256 printable characters without spaces');
    expect(message).not.toContain('short-secret');
    expect(message).toContain('METRICS_ALLOW: must be IP addresses or CIDR ranges separated by commas');
    for (const bad of ['10.0.0.0/33', '::1/129', '10.0.0.0/8/8', '10.0.0.0/', '300.1.1.1', ',']) {
      expect(() => loadConfig({ DATA_DIR: dir(), METRICS_ALLOW: bad }), bad).toThrow(/METRICS_ALLOW/);
    }
    expect(() => loadConfig({ DATA_DIR: dir(), SHUTDOWN_GRACE_SECONDS: '2.5' })).toThrow(/SHUTDOWN_GRACE_SECONDS/);
    expect(() => loadConfig({ DATA_DIR: dir(), METRICS_TOKEN: 'a token with spaces in it, long enough' })).toThrow(
      /METRICS_TOKEN/,
    );
  });
});
