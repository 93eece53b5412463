// Prints the gzipped JavaScript each screen needs on a first visit, from Vite's manifest.
// Budget (DESIGN.md): the first route ships at most 200 KB of gzipped JS.
// Run after `npm run build`: node bench/web-bundle.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve('dist/web');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const size = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imp of chunk.imports ?? []) closure(imp, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
const shell = closure(entryKey);
const kb = (n) => (n / 1024).toFixed(1).padStart(7);
const rows = [['shell (entry and its imports)', [...shell].reduce((s, f) => s + size(f), 0)]];
// screens inside the app layout load it too; the sign-in page does not
const dynamic = manifest[entryKey].dynamicImports ?? [];
const layoutKey = dynamic.find((k) => k.endsWith('app/layout.tsx'));
for (const key of dynamic.filter((k) => k !== layoutKey)) {
  const files = new Set([...shell, ...closure(key)]);
  const inLayout = layoutKey && !key.endsWith('login-page.tsx');
  if (inLayout) for (const f of closure(layoutKey)) files.add(f);
  const total = [...files].reduce((s, f) => s + size(f), 0);
  rows.push([
    `first visit to ${path
      .basename(key)
      .replace(/^_/, '')
      .replace(/(-[\w-]{8})?\.(tsx?|js)$/, '')}${inLayout ? ' (+ layout)' : ''}`,
    total,
  ]);
}
console.log('| what loads                               | gzip KB |');
console.log('|------------------------------------------|---------|');
for (const [name, bytes] of rows) console.log(`| ${name.padEnd(40)} | ${kb(bytes)} |`);
const worst = Math.max(...rows.map(([, b]) => b));
console.log(
  `\nlargest first visit: ${kb(worst).trim()} KB gzip (budget 200 KB) ${worst <= 200 * 1024 ? 'within budget' : 'OVER BUDGET'}`,
);

// the traveller's side: its own entry, 150 KB on a phone for each kind of page, none of the back office's code
const travellerKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('traveller.html'));
if (travellerKey) {
  const entry = closure(travellerKey);
  const office = [...entry].filter((f) => shell.has(f) && !/react-/.test(f));
  const pages = [
    ['pay page (/pay)', 'pay-page.tsx'],
    ['booking page (/book)', 'book-page.tsx'],
    ['own pages (/my)', 'my-pages.tsx'],
  ];
  console.log('');
  for (const [label, file] of pages) {
    const key = (manifest[travellerKey].dynamicImports ?? []).find((k) => k.endsWith(file));
    const files = new Set([...entry, ...(key ? closure(key) : [])]);
    const bytes = [...files].reduce((s, f) => s + size(f), 0);
    const css = [...files].flatMap((f) => Object.values(manifest).find((c) => c.file === f)?.css ?? []);
    console.log(
      `traveller ${label}: ${kb(bytes).trim()} KB gzip of JavaScript in ${files.size} files, ${css.length} stylesheets (budget 150 KB) ${bytes <= 150 * 1024 ? 'within budget' : 'OVER BUDGET'}`,
    );
  }
  console.log(
    `files the traveller entry shares with the back office's shell: ${office.length ? office.join(', ') : 'none but React'}`,
  );
}
