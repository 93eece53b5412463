// Measures how long `npm start`'s server takes to be ready on an existing embedded database
// (budget, DESIGN.md: 3 s). Prints a table of runs. Run: node bench/startup.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-start-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '3299',
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: 'bench@example.test',
  ADMIN_PASSWORD: 'bench-password-123',
};

function startOnce() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/server/main.ts'], { env });
    let out = '';
    child.stdout.on('data', async (d) => {
      out += d;
      if (!out.includes('Tripdesk is ready')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const ok = await fetch('http://127.0.0.1:3299/login').then(
        (r) => r.status === 200,
        () => false,
      );
      child.kill('SIGTERM');
      child.on('exit', () => resolve({ ms, ok }));
    });
    child.on('error', reject);
    setTimeout(() => reject(new Error('not ready in 60 s:\n' + out)), 60_000).unref();
  });
}

const first = await startOnce();
console.log(`first start (migrate + demo office): ${first.ms.toFixed(0)} ms\n`);
console.log('| run | ready in (ms) | /login answered |');
console.log('|-----|---------------|-----------------|');
const times = [];
for (let i = 1; i <= runs; i++) {
  const r = await startOnce();
  times.push(r.ms);
  console.log(`| ${String(i).padStart(3)} | ${r.ms.toFixed(0).padStart(13)} | ${String(r.ok).padStart(15)} |`);
}
times.sort((a, b) => a - b);
console.log(`\nmedian ${times[Math.floor(times.length / 2)].toFixed(0)} ms on an existing database (budget 3000 ms)`);
