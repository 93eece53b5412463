// No two folders of src/server import each other (a domain module is a folder of its own:
// modules/bookings, modules/trips…; the files at the top, app.ts and the like, are the top
// floor). Run by `npm run lint` beside the file-cycle check; prints each pair with its imports.
import fs from 'node:fs';
import path from 'node:path';

const root = 'src/server';
const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(p);
  }
})(root);

const folderOf = (file) => {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length > 1 ? parts[0] : null;
};

const edges = new Map();
for (const file of files) {
  const source = fs.readFileSync(file, 'utf8');
  for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    const target = path.normalize(path.join(path.dirname(file), m[1]));
    const from = folderOf(file);
    const to = target.startsWith(root + path.sep) ? folderOf(target) : null;
    if (!from || !to || from === to) continue;
    const key = `${from} -> ${to}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${file} -> ${target}`);
  }
}

let pairs = 0;
for (const key of edges.keys()) {
  const [a, b] = key.split(' -> ');
  if (a < b && edges.has(`${b} -> ${a}`)) {
    pairs += 1;
    console.error(`${a} and ${b} import each other:`);
    for (const line of [...edges.get(key), ...edges.get(`${b} -> ${a}`)]) console.error(`  ${line}`);
  }
}
if (pairs) {
  console.error(
    `\n${pairs} pair${pairs === 1 ? '' : 's'} of folders in ${root} import each other: move what both need down a floor (server/common, server/mail).`,
  );
  process.exit(1);
}
console.log(`folders of ${root}: none import each other`);
