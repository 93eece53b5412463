// Sums the JSON reports of vitest and Playwright into CI's last line: "ci: N passed, N failed".
// A failed step counts once (install, lint, build…), unless its own reports already show failures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const files = existsSync(dir) ? readdirSync(dir) : [];
let passed = 0;
let failed = 0;
const failedByRun = {};
for (const file of files) {
  const run = file.replace(/^(vitest|playwright)-/, '').replace(/\.json$/, '');
  let p;
  let f;
  if (file.startsWith('vitest-')) {
    const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    p = report.numPassedTests ?? 0;
    f =
      (report.numFailedTests ?? 0) +
      // a file that failed to load has no tests, but must not pass quietly
      (report.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
  } else if (file.startsWith('playwright-')) {
    const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    p = report.stats?.expected ?? 0;
    f = (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0) + (report.errors?.length ?? 0);
  } else continue;
  console.log(`${file}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
  failedByRun[run] = (failedByRun[run] ?? 0) + f;
}
for (const file of files.filter((f) => f.startsWith('step-failed-'))) {
  const run = file.slice('step-failed-'.length);
  if (!failedByRun[run]) {
    console.log(`failed step: ${readFileSync(path.join(dir, file), 'utf8').trim()}`);
    failed += 1;
  }
}
console.log(`ci: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
