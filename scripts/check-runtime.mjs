// Says which Node runs the project's scripts, and checks every installed package's `engines.node`
// against it. npm checks engines against the Node that runs npm itself (the machine's, often 20);
// the project runs on the Node it pins (the `node` package), so this is the check that matters.
// docs/decisions/008-node-24-from-the-npm-registry.md
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const pinned = pkg.dependencies.node;
const running = process.version;

const problems = [];
if (!semver.satisfies(running, pkg.engines.node)) {
  problems.push(
    `scripts run on Node ${running}, not the pinned ${pinned}: run them through npm (npm start, npm test, npm run …)`,
  );
}

function* packages(dir) {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    if (!name.isDirectory() || name.name.startsWith('.')) continue;
    const full = path.join(dir, name.name);
    if (name.name.startsWith('@')) {
      yield* packages(full);
      continue;
    }
    try {
      yield [full, JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8'))];
    } catch {
      continue;
    }
    try {
      yield* packages(path.join(full, 'node_modules'));
    } catch {
      // no nested node_modules
    }
  }
}

let checked = 0;
for (const [dir, manifest] of packages(path.join(root, 'node_modules'))) {
  const wanted = manifest.engines?.node;
  if (typeof wanted !== 'string') continue;
  checked += 1;
  if (semver.validRange(wanted) && !semver.satisfies(running, wanted, { includePrerelease: true })) {
    problems.push(`${manifest.name}@${manifest.version} (${path.relative(root, dir)}) wants Node ${wanted}`);
  }
}

console.log(
  `runtime: Node ${running} (pinned ${pinned} by package.json and the lockfile); npm runs on ${process.env.npm_config_user_agent?.match(/node\/(v[\d.]+)/)?.[1] ?? 'unknown'}; ${checked} packages' engines checked`,
);
for (const p of problems) console.error(`runtime: ${p}`);
process.exit(problems.length ? 1 : 0);
