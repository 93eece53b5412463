import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const reportDir = process.env.CI_REPORT_DIR;
const reportName = process.env.CI_REPORT_NAME ?? 'run';

export default defineConfig({
  test: {
    // vitest takes one core fewer than the machine has: one worker on CI's two cores. The API
    // files wait on their database half the time, so two workers there finish in two thirds
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: reportDir
      ? ['default', ['json', { outputFile: `${reportDir}/vitest-${reportName}.json` }]]
      : ['default'],
    projects: [
      {
        test: {
          name: 'api',
          environment: 'node',
          include: [
            'src/server/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'src/db/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'tests/fuzz/**/*.test.ts',
          ],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts'],
        },
      },
    ],
  },
});
