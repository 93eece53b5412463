// Builds the web app when it is missing or older than its sources, so that
// `npm install && npm start` always serves what the checkout holds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const built = path.join(root, 'dist/web/index.html');

function newest(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(target)) max = Math.max(max, newest(path.join(target, entry)));
  return max;
}

const sources = ['src/web', 'src/contract', 'vite.config.ts', 'postcss.config.cjs', 'package-lock.json'];
const stale = !existsSync(built) || sources.some((s) => newest(path.join(root, s)) > statSync(built).mtimeMs);
if (stale) {
  if (!existsSync(path.join(root, 'node_modules/vite'))) {
    console.error('The web app is not built and vite is not installed: run npm install first.');
    process.exit(1);
  }
  console.log('Building the web app…');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  process.exit(result.status ?? 1);
}
