import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import { parse as parseQuery } from 'node:querystring';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { keepFundraisingDefaults } from './modules/fundraising/sql.ts';
import type { Db } from '../db/client.ts';
import { operatorOf, type Config } from './config.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { replySerializerCompiler } from './plugins/reply-serializer.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { charityRoutes } from './modules/charities/routes.ts';
import { countryRoutes } from './modules/countries/routes.ts';
import { discountRoutes } from './modules/discounts/routes.ts';
import { tripRoutes } from './modules/trips/routes.ts';
import { groupRoutes } from './modules/groups/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { travellerDataPlugin } from './common/traveller-data.ts';
import { teamRoutes } from './modules/teams/routes.ts';
import { customFieldRoutes } from './modules/custom-fields/routes.ts';
import { documentRoutes } from './modules/documents/routes.ts';
import { bookingRoutes } from './modules/bookings/routes.ts';
import { overviewRoutes } from './modules/overview/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { noteRoutes } from './modules/notes/routes.ts';
import { createMailer, type Mailer } from './mail/transport.ts';
import { oauthRoutes } from './modules/oauth/routes.ts';
import { auditPlugin } from './audit/audit.ts';
import { auditRoutes } from './audit/routes.ts';
import { systemClock, type Clock } from './clock.ts';
import type { JobQueue } from './jobs/queue.ts';
import { jobRoutes } from './jobs/routes.ts';
import { scheduleRoutes } from './modules/schedules/routes.ts';
import { emailRoutes } from './modules/emails/routes.ts';
import { emailPreviews } from './email-registry.ts';
import { moneyDueRoutes } from './modules/money-due/routes.ts';
import { readinessRoutes } from './modules/readiness/routes.ts';
import { retentionRoutes } from './modules/retention/routes.ts';
import { chaserRoutes } from './modules/chasers/routes.ts';
import { fundraisingRoutes } from './modules/fundraising/routes.ts';
import { portalRoutes } from './modules/fundraising/portal-routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { cardPaymentRoutes } from './modules/card-payments/routes.ts';
import { cardPaymentsFrom } from './modules/card-payments/service.ts';
import { myRoutes } from './modules/my/routes.ts';
import { changesRoutes } from './modules/changes/routes.ts';
import { ChangesService } from './modules/changes/service.ts';
import { onlineBookingRoutes } from './modules/online-booking/routes.ts';
import { onlineBookingFrom } from './modules/online-booking/service.ts';
import { waitingListFrom } from './modules/online-booking/waiting-list.ts';
import { MyService } from './modules/my/service.ts';
import { authPlugin } from './plugins/auth.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin, storableTextPlugin } from './plugins/errors.ts';
import { scopesPlugin } from './plugins/scopes.ts';
import { webPlugin } from './plugins/web.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { OneLinePerRequest, requestId, requestLogPlugin } from './ops/request-log.ts';
import { opsRoutes } from './ops/routes.ts';
import { createFileStore, type FileStore } from '../shared/storage/index.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** how email leaves; by default from the configuration (SMTP_URL, else .eml files) */
  mailer?: Mailer;
  /** the job queue (main.ts starts it; API tests that need it pass one) */
  jobs?: JobQueue;
  /** the one clock (tests move it); the system's by default */
  clock?: Clock;
  /** what /metrics reports (main.ts makes it first, so the job queue's email counts too); the app's own by default */
  metrics?: Metrics;
  /** where uploaded files live; by default from the configuration (STORAGE), closed with the app */
  files?: FileStore;
};

export const BODY_LIMIT = 1024 * 1024;

/** The whole server, without listening: main.ts listens, tests inject. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    // the caller's X-Request-Id when it is a sane one (requestId checks it), else a new UUID
    requestIdHeader: false,
    genReqId: requestId,
    // one line per request, written by requestLogPlugin when it is answered
    logController: new OneLinePerRequest(),
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString },
  });
  app.setValidatorCompiler(validatorCompiler);
  // replies written by a compiled serializer in production; in development and tests each is also
  // encoded by zod, validated, and the two must agree (decision 037)
  app.setSerializerCompiler(replySerializerCompiler(config.env === 'production' ? 'compiled' : 'checked'));
  // the configuration's fundraising defaults, where the database's standing of each booking reads them
  if (await keepFundraisingDefaults(db, config.fundraisingDefaults))
    app.log.info('The fundraising defaults changed: every booking on them has its standing worked out again.');
  const metrics = deps.metrics ?? createMetrics({ db });
  const files = deps.files ?? createFileStore(config.storage);
  if (!deps.files) app.addHook('onClose', async () => files.close());
  // one mailer for the app, each message counted by its outcome
  const mailer = metrics.countMail(deps.mailer ?? createMailer(config));

  // first, so that every reply (a 404, a refusal) carries its X-Request-Id and is logged
  await app.register(requestLogPlugin, { metrics });
  await app.register(errorsPlugin);
  // every request runs in its own audit context (who acts, from where), read by audit()
  await app.register(auditPlugin);
  // swagger-ui sets its own Content-Security-Policy
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(fastifyFormbody);
  // only routes that ask for it (sign-in, the token endpoint) are limited; the limits live with
  // those routes, counted in the database so that every app server counts the same
  await app.register(fastifyRateLimit, { global: false, store: databaseRateLimitStore(db) });
  // uploads are read part by part in the routes that take them, each with its own size limit
  await app.register(fastifyMultipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1 } });
  await app.register(docsPlugin);
  await app.register(authPlugin, {
    db,
    secret: config.sessionSecret,
    timeouts: { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
  });

  // before any route: records what each one asks of a bearer token
  await app.register(scopesPlugin);
  await app.register(travellerDataPlugin);
  await app.register(storableTextPlugin);

  await app.register(opsRoutes, {
    db,
    files,
    metrics,
    metricsToken: config.metricsToken,
    metricsAllow: config.metricsAllow,
  });

  await app.register(authRoutes, { db, loginRateLimit: config.loginRateLimit });
  await app.register(countryRoutes, { db });
  await app.register(overviewRoutes, { db });
  await app.register(charityRoutes, { db, files });
  await app.register(discountRoutes, { db });
  await app.register(tripRoutes, { db });
  await app.register(groupRoutes, {
    db,
    fundraisingDefaults: config.fundraisingDefaults,
    clock: deps.clock ?? systemClock,
    mailer,
    operator: operatorOf(config),
    reminderDays: config.reminderDays,
  });
  await app.register(userRoutes, { db });
  await app.register(teamRoutes, { db });
  await app.register(customFieldRoutes, { db });
  await app.register(documentRoutes, { db, files, secret: config.sessionSecret });
  await app.register(bookingRoutes, {
    db,
    files,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(invoiceRoutes, {
    db,
    operator: operatorOf(config),
    mailer,
  });
  await app.register(noteRoutes, { db });
  await app.register(auditRoutes, { db });
  await app.register(jobRoutes, { db, jobs: deps.jobs });
  await app.register(scheduleRoutes, {
    db,
    mailer,
    operator: operatorOf(config),
    reminderDays: config.reminderDays,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(moneyDueRoutes, { db, ...(deps.clock ? { clock: deps.clock } : {}) });
  await app.register(readinessRoutes, {
    db,
    fundraisingDefaults: config.fundraisingDefaults,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(retentionRoutes, {
    db,
    files,
    days: config.retentionDaysAfterReturn,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(fundraisingRoutes, {
    db,
    defaults: config.fundraisingDefaults,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(portalRoutes, {
    db,
    defaults: config.fundraisingDefaults,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(dashboardRoutes, {
    db,
    fundraisingDefaults: config.fundraisingDefaults,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(reportRoutes, { db, ...(deps.clock ? { clock: deps.clock } : {}) });
  await app.register(chaserRoutes, {
    db,
    fundraisingDefaults: config.fundraisingDefaults,
    files,
    mailer,
    operator: operatorOf(config),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(emailRoutes, {
    db,
    mailer,
    previews: emailPreviews({
      db,
      operator: operatorOf(config),
      clock: deps.clock ?? systemClock,
      fundraisingDefaults: config.fundraisingDefaults,
      publicUrl: config.publicUrl,
    }),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  await app.register(oauthRoutes, { db, personalTokenDays: config.personalTokenDays });
  await app.register(cardPaymentRoutes, {
    service: cardPaymentsFrom({ db, config, operator: operatorOf(config), mailer, clock: deps.clock ?? systemClock }),
    operatorName: config.operatorName,
  });

  // changes after booking: the office's routes, and the traveller's asks on their own pages
  const changes = new ChangesService({
    db,
    operator: operatorOf(config),
    mailer,
    clock: deps.clock ?? systemClock,
    fundraising: config.fundraisingDefaults,
  });
  await app.register(changesRoutes, { service: changes });

  await app.register(onlineBookingRoutes, {
    service: onlineBookingFrom({ db, config, operator: operatorOf(config), mailer, clock: deps.clock ?? systemClock }),
    waitingList: waitingListFrom({
      db,
      config,
      operator: operatorOf(config),
      mailer,
      clock: deps.clock ?? systemClock,
    }),
  });

  await app.register(myRoutes, {
    service: new MyService({
      db,
      files,
      secret: config.sessionSecret,
      mailer,
      operator: operatorOf(config),
      clock: deps.clock ?? systemClock,
      fundraisingDefaults: config.fundraisingDefaults,
      publicUrl: config.publicUrl,
      changes,
      officeEmail: config.officeEmail,
    }),
  });

  await app.register(webPlugin, { reloadTemplate: config.env === 'development', cardPayments: Boolean(config.stripe) });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: 'Not Found' });
  });

  return app;
}

/** name[]=1&name[]=2 (how a form or the web client sends a list) arrives as name: ['1', '2']. */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(parseQuery(qs))) {
    if (value === undefined) continue;
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const list = Array.isArray(value) ? value : [value];
      const prev = out[name];
      out[name] = [...(prev === undefined ? [] : Array.isArray(prev) ? prev : [prev]), ...list];
    } else {
      out[key] = value;
    }
  }
  return out;
}
