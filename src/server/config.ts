import type { StorageConfig } from '../shared/storage/index.ts';
import type { Operator } from './common/operator.ts';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'], { error: 'must be 1 or 0 (or true/false)' })
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}` })
    .positive({ error: `must be ${what}` });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce
      .number({ error: 'must be a port number from 1 to 65535' })
      .int({ error: 'must be a port number from 1 to 65535' })
      .min(0, { error: 'must be a port number from 1 to 65535' })
      .max(65535, { error: 'must be a port number from 1 to 65535' })
      .default(3000),
    HOST: z.string().min(1, { error: 'must not be empty' }).default('0.0.0.0'),
    DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, { error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
    SESSION_SECRET: z.string().min(32, { error: 'must be at least 32 characters long' }).optional(),
    SESSION_IDLE_MINUTES: positiveInt('a whole number of minutes').default(120),
    SESSION_ABSOLUTE_HOURS: positiveInt('a whole number of hours').default(12),
    ADMIN_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters long' }).optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/.+/, { error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
    MAIL_FROM: z.string().default('Tripdesk <no-reply@tripdesk.local>'),
    OPERATOR_NAME: z.string().default('Tripdesk Adventures Ltd'),
    // lines separated by "|" or new lines, as printed on invoices
    OPERATOR_ADDRESS: z.string().default('1 High Street|London|EC1A 1AA'),
    // how to pay by bank transfer, for travellers when card payments are not set up
    OPERATOR_BANK_DETAILS: z.string().max(500, { error: 'must be at most 500 characters' }).optional(),
    PERSONAL_TOKEN_DAYS: positiveInt('a whole number of days').default(365),
    // seven years: how long financial records are kept
    AUDIT_RETENTION_DAYS: positiveInt('a whole number of days')
      .min(365, { error: 'must be at least 365 days' })
      .default(2555),
    SEED_DEMO: flag.optional(),
    // an instalment's invoice is raised and emailed this many days before it is due
    INVOICE_LEAD_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 0 to 365' })
      .int({ error: 'must be a whole number of days from 0 to 365' })
      .min(0, { error: 'must be a whole number of days from 0 to 365' })
      .max(365, { error: 'must be a whole number of days from 0 to 365' })
      .default(21),
    // where the evening money digest goes (overdue instalments, reminders not sent); none: no digest
    OFFICE_EMAIL: z.email({ error: 'must be an email address' }).optional(),
    // days from an instalment's due date that reminders go (negative: before)
    REMINDER_DAYS: z
      .string()
      .regex(/^\s*-?\d{1,3}(\s*,\s*-?\d{1,3})*\s*$/, {
        error: 'must be whole numbers of days separated by commas, such as -7,-3,0,2,7',
      })
      .default('-7,-3,0,2,7'),
    // passport, medical and next-of-kin details are erased this many days after the trip's return
    RETENTION_DAYS_AFTER_RETURN: z.coerce
      .number({ error: 'must be a whole number of days from 0 to 3650' })
      .int({ error: 'must be a whole number of days from 0 to 3650' })
      .min(0, { error: 'must be a whole number of days from 0 to 3650' })
      .max(3650, { error: 'must be a whole number of days from 0 to 3650' })
      .default(180),
    // fundraising defaults for a trip that has not set its own: the minimum sponsorship in pounds per funding type, and the milestones (percent:weeks before departure)
    FUNDRAISING_MINIMUM: z.coerce
      .number({ error: 'must be a whole number of pounds' })
      .int({ error: 'must be a whole number of pounds' })
      .min(0, { error: 'must be a whole number of pounds' })
      .max(1_000_000, { error: 'must be at most 1000000' })
      .default(2500),
    FUNDRAISING_MINIMUM_FLEXI: z.coerce
      .number({ error: 'must be a whole number of pounds' })
      .int({ error: 'must be a whole number of pounds' })
      .min(0, { error: 'must be a whole number of pounds' })
      .max(1_000_000, { error: 'must be at most 1000000' })
      .default(1250),
    FUNDRAISING_MILESTONES: z
      .string()
      .regex(/^\s*\d{1,3}:\d{1,3}(\s*,\s*\d{1,3}:\d{1,3})*\s*$/, {
        error: 'must be percent:weeks pairs separated by commas, such as 50:16,80:12,100:4',
        abort: true,
      })
      .refine(
        (v) =>
          v.split(',').every((p) => {
            const [pc, wk] = p.split(':').map((x) => Number(x.trim()));
            return pc! >= 1 && pc! <= 100 && wk! <= 104;
          }),
        { error: 'each percentage must be 1 to 100 and each number of weeks at most 104' },
      )
      .default('50:16,80:12,100:4'),
    // 1: npm start also works the job queue; 0: a web-only server (run npm run worker beside it)
    WORKERS: flag.default(true),
    LOGIN_RATE_LIMIT: positiveInt('a whole number of sign-in attempts').default(30),
    // the proxies in front of Tripdesk, whose X-Forwarded-For is believed; never "every proxy":
    // then any client could name its own address and walk past the sign-in limits and METRICS_ALLOW
    TRUST_PROXY: z
      .string()
      .refine((v) => !['true', 'yes', 'on'].includes(v.trim().toLowerCase()), {
        error:
          "cannot be true (that would believe any client about its own address): give the proxies' addresses or CIDR ranges, such as 10.0.0.5 or 10.0.0.0/8",
        abort: true,
      })
      .refine(
        (v) =>
          ['false', '0', 'off', 'no'].includes(v.trim().toLowerCase()) ||
          v.split(',').every((a) => PROXY_KEYWORDS.has(a.trim()) || isAddressOrRange(a.trim())),
        {
          error:
            "must be the proxies' IP addresses or CIDR ranges separated by commas (or loopback, linklocal, uniquelocal)",
        },
      )
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // how long in-flight requests and the job in hand get after SIGTERM/SIGINT
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ error: 'must be a whole number of seconds from 1 to 600' })
      .int({ error: 'must be a whole number of seconds from 1 to 600' })
      .min(1, { error: 'must be a whole number of seconds from 1 to 600' })
      .max(600, { error: 'must be a whole number of seconds from 1 to 600' })
      .default(25),
    // /metrics for a scraper that sends `Authorization: Bearer <token>` (decision 016)
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{24,256}$/, { error: 'must be 24 to 256 printable characters without spaces' })
      .optional(),
    // /metrics for these addresses without a token: IPs or CIDR ranges, separated by commas
    METRICS_ALLOW: z
      .string()
      .refine((v) => v.split(',').every((a) => isAddressOrRange(a.trim())), {
        error: 'must be IP addresses or CIDR ranges separated by commas, such as 10.0.0.5,192.168.1.0/24',
      })
      .optional(),
    // where uploaded files live: DATA_DIR/files (local) or an S3-compatible bucket
    STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
        error: 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
      })
      .optional(),
    S3_REGION: z.string().default('us-east-1'),
    // any S3-compatible store (MinIO, R2, …); none: AWS S3 itself
    S3_ENDPOINT: z.url({ error: 'must be a URL such as https://s3.example.com' }).optional(),
    // address buckets as https://endpoint/bucket (MinIO and most non-AWS stores need it); on by default with S3_ENDPOINT
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    // a folder inside the bucket, for a bucket shared with other things
    S3_PREFIX: z
      .string()
      .regex(/^[\w./-]*$/, { error: 'may hold letters, digits, dots, hyphens, underscores and slashes' })
      .default(''),
    // card payments through Stripe Checkout; without a key Tripdesk offers none
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^[\x21-\x7e]{8,255}$/, { error: 'must be a Stripe secret key, such as sk_live_…' })
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^[\x21-\x7e]{8,255}$/, { error: "must be the webhook endpoint's signing secret, such as whsec_…" })
      .optional(),
    // another address for Stripe's API (a local stand-in in tests, or a staging office)
    STRIPE_API_BASE: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as http://127.0.0.1:12111' })
      .optional(),
    // the address travellers reach Tripdesk at: every link in an email starts with it
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://book.example.com' })
      .optional(),
    PAY_LINK_DAYS: positiveInt('a whole number of days').max(365, { error: 'must be at most 365 days' }).default(30),
    // an online booking's place is held this long for its deposit to be paid
    BOOKING_HOLD_MINUTES: positiveInt('a whole number of minutes')
      .max(1440, { error: 'must be at most 1440 minutes' })
      .default(30),
    // how long a waiting list's offer of a freed place holds it
    WAITING_LIST_OFFER_HOURS: positiveInt('a whole number of hours')
      .max(720, { error: 'must be at most 720 hours' })
      .default(48),
    // bookings in flight on one server from which a booking replies from its row alone, its schedule,
    // deposit invoice and email made straight after (decision 030; 0: always, as the bench may)
    BOOKING_BURST: z.coerce
      .number({ error: 'must be a whole number from 0 to 1000' })
      .int({ error: 'must be a whole number from 0 to 1000' })
      .min(0, { error: 'must be a whole number from 0 to 1000' })
      .max(1000, { error: 'must be a whole number from 0 to 1000' })
      .default(2),
    // how long each server keeps a trip's public page it has read (0: not at all)
    PUBLIC_PAGE_CACHE_MS: z.coerce
      .number({ error: 'must be a whole number of milliseconds from 0 to 60000' })
      .int({ error: 'must be a whole number of milliseconds from 0 to 60000' })
      .min(0, { error: 'must be a whole number of milliseconds from 0 to 60000' })
      .max(60_000, { error: 'must be a whole number of milliseconds from 0 to 60000' })
      .default(2000),
    // bookings one address may make on the public booking pages in 10 minutes
    PUBLIC_BOOKINGS_PER_ADDRESS: positiveInt('a whole number').default(30),
    // the operator's booking terms, which a traveller booking online must accept
    OPERATOR_TERMS_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  })
  .refine((env) => !env.STRIPE_SECRET_KEY || Boolean(env.STRIPE_WEBHOOK_SECRET), {
    path: ['STRIPE_WEBHOOK_SECRET'],
    error: 'must be set with STRIPE_SECRET_KEY: without it no card payment could be recorded',
  })
  .refine((env) => !env.STRIPE_SECRET_KEY || Boolean(env.PUBLIC_URL), {
    path: ['PUBLIC_URL'],
    error: 'must be set with STRIPE_SECRET_KEY: every pay link in an email starts with it',
  })
  .refine((env) => env.STORAGE !== 's3' || Boolean(env.S3_BUCKET), {
    path: ['S3_BUCKET'],
    error: 'must be set when STORAGE is s3',
  })
  .refine((env) => Boolean(env.ADMIN_EMAIL) === Boolean(env.ADMIN_PASSWORD), {
    path: ['ADMIN_PASSWORD'],
    error: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
  });

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** the operator as printed on invoices */
  operatorName: string;
  operatorAddress: string[];
  operatorBankDetails?: string | undefined;
  /** how long a personal access token lives */
  personalTokenDays: number;
  auditRetentionDays: number;
  seedDemo: boolean;
  /** days before an instalment is due that its invoice is raised and sent */
  invoiceLeadDays: number;
  /** where the evening money digest goes */
  officeEmail: string | undefined;
  /** days from an instalment's due date that its reminders go */
  reminderDays: number[];
  /** a trip's fundraising rule when it has not set its own */
  fundraisingDefaults: {
    minimumPence: Record<'fundraise' | 'flexi', number>;
    milestones: Array<{ percent: number; weeks_before: number }>;
  };
  /** days after a trip's return that its travellers' passport, medical and next-of-kin details are erased */
  retentionDaysAfterReturn: number;
  /** whether this server works the job queue (WORKERS) */
  workers: boolean;
  /** sign-in attempts a minute from one address, whatever the account */
  loginRateLimit: number;
  /** false, or the proxies' addresses (never true: loadConfig refuses it) */
  trustProxy: boolean | string;
  logLevel: string;
  /** how long a stopping process waits for in-flight requests and the job in hand */
  shutdownGraceSeconds: number;
  /** the bearer token a metrics scraper sends; none: only METRICS_ALLOW addresses may scrape */
  metricsToken: string | undefined;
  /** addresses (IPs, CIDR ranges) that may read /metrics without a token */
  metricsAllow: string[];
  /** where uploaded files live; credentials for S3 come from the usual AWS variables */
  storage: StorageConfig;
  /** Stripe, when card payments are set up */
  stripe: StripeConfig | undefined;
  /** the address travellers reach Tripdesk at, without a trailing slash */
  publicUrl: string;
  /** how long a pay link in an email works */
  payLinkDays: number;
  /** how long an online booking's place is held for its deposit */
  bookingHoldMinutes: number;
  /** the operator's booking terms, linked from the public booking page */
  operatorTermsUrl: string | undefined;
  /** bookings one address may make on the public booking pages in 10 minutes */
  publicBookingsPerAddress: number;
  /** how long a waiting list's offer holds its places */
  waitingListOfferHours: number;
  /** how long each server keeps a trip's public page it has read */
  publicPageCacheMs: number;
  /** bookings in flight on one server from which a booking's reply is made from its row alone (decision 030) */
  bookingBurst: number;
};

export type StripeConfig = { secretKey: string; webhookSecret: string; apiBase: string | undefined };

export class ConfigError extends Error {}

/** The operator as invoices and emails print it, with its pay links when Stripe is set up. */
export function operatorOf(config: Config): Operator {
  return {
    name: config.operatorName,
    address: config.operatorAddress,
    payLinks: config.stripe
      ? { secret: config.sessionSecret, publicUrl: config.publicUrl, days: config.payLinkDays }
      : undefined,
    portalLinks: { secret: config.sessionSecret, publicUrl: config.publicUrl },
    bankDetails: config.operatorBankDetails,
  };
}

/** Reads the environment; throws ConfigError naming every bad value. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // an empty variable means "not set", as in a .env file with KEY=
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'environment');
      const got =
        key in cleaned && !/SECRET|PASSWORD|TOKEN|DATABASE_URL|SMTP_URL/.test(key) ? ` (got "${cleaned[key]}")` : '';
      return `  ${key}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    sessionSecret: env.SESSION_SECRET ?? keptSecret(dataDir),
    sessionIdleMs: env.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    operatorName: env.OPERATOR_NAME,
    operatorAddress: env.OPERATOR_ADDRESS.split(/\||\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    operatorBankDetails: env.OPERATOR_BANK_DETAILS?.trim() || undefined,
    personalTokenDays: env.PERSONAL_TOKEN_DAYS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    seedDemo: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
    workers: env.WORKERS,
    invoiceLeadDays: env.INVOICE_LEAD_DAYS,
    retentionDaysAfterReturn: env.RETENTION_DAYS_AFTER_RETURN,
    officeEmail: env.OFFICE_EMAIL,
    reminderDays: [...new Set(env.REMINDER_DAYS.split(',').map((d) => Number(d.trim())))].sort((a, b) => a - b),
    fundraisingDefaults: {
      minimumPence: { fundraise: env.FUNDRAISING_MINIMUM * 100, flexi: env.FUNDRAISING_MINIMUM_FLEXI * 100 },
      milestones: env.FUNDRAISING_MILESTONES.split(',')
        .map((p) => p.split(':').map((x) => Number(x.trim())))
        .map(([percent, weeks]) => ({ percent: percent!, weeks_before: weeks! }))
        .sort((a, b) => b.weeks_before - a.weeks_before),
    },
    loginRateLimit: env.LOGIN_RATE_LIMIT,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    metricsToken: env.METRICS_TOKEN,
    metricsAllow: (env.METRICS_ALLOW ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    storage:
      env.STORAGE === 's3'
        ? {
            driver: 's3',
            bucket: env.S3_BUCKET!,
            region: env.S3_REGION,
            endpoint: env.S3_ENDPOINT,
            forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
            prefix: env.S3_PREFIX.replace(/^\/+|\/+$/g, ''),
          }
        : { driver: 'local', dataDir },
    stripe: env.STRIPE_SECRET_KEY
      ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET!, apiBase: env.STRIPE_API_BASE }
      : undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    payLinkDays: env.PAY_LINK_DAYS,
    bookingHoldMinutes: env.BOOKING_HOLD_MINUTES,
    operatorTermsUrl: env.OPERATOR_TERMS_URL,
    publicBookingsPerAddress: env.PUBLIC_BOOKINGS_PER_ADDRESS,
    waitingListOfferHours: env.WAITING_LIST_OFFER_HOURS,
    publicPageCacheMs: env.PUBLIC_PAGE_CACHE_MS,
    bookingBurst: env.BOOKING_BURST,
  };
}

/** "10.0.0.5", "::1", "192.168.1.0/24", "fd00::/8" */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A secret made once and kept in DATA_DIR, so sessions survive a restart. */
function keptSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** proxy-addr's names for ranges, which Fastify's trustProxy takes beside addresses */
const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(value: string | undefined): false | string {
  if (!value || ['false', '0', 'off', 'no'].includes(value.trim().toLowerCase())) return false;
  // a comma list of addresses or CIDR ranges of the proxies in front of us
  return value
    .split(',')
    .map((a) => a.trim())
    .join(',');
}
