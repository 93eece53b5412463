import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);

// specs whose screens hold no date a moved clock could change: the clock-shifted CI runs leave them
// out (E2E_DATED_ONLY=1), the run at today's date runs them
const UNDATED = [
  'shell',
  'header',
  'developer',
  'users',
  'charities',
  'email-templates',
  'charity-link',
  'multi-select',
].map((name) => `**/${name}.spec.ts`);

// E2E_SHARD=1/2: this run takes the first half of the specs (CI splits the dated ones between its
// two moved clocks)
const shard = /^(\d+)\/(\d+)$/.exec(process.env.E2E_SHARD ?? '');

export default defineConfig({
  testDir: 'tests/e2e',
  testIgnore: process.env.E2E_DATED_ONLY === '1' ? UNDATED : [],
  shard: shard ? { current: Number(shard[1]), total: Number(shard[2]) } : null,
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI_REPORT_DIR
    ? [
        ['list'],
        ['json', { outputFile: `${process.env.CI_REPORT_DIR}/playwright-${process.env.CI_REPORT_NAME ?? 'run'}.json` }],
      ]
    : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    // our CSP forbids inline scripts; axe-core is injected by the tests only
    bypassCSP: true,
    reducedMotion: 'reduce',
    timezoneId: 'Europe/London',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node scripts/ensure-web.mjs && tsx tests/e2e/serve.ts',
    url: `http://127.0.0.1:${port}/login`,
    env: { PORT: String(port), LOG_LEVEL: 'silent', SEED_DEMO: '1', LOGIN_RATE_LIMIT: '10000' },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
  },
});
