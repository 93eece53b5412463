import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from './client.ts';

const root = path.resolve(migrationsFolder, '../../..');

/**
 * Where `npm install` keeps a migrated copy of the embedded database, for a new data folder to
 * start from (a second instead of five: no initdb, no migrations). Its name is a digest of the
 * migrations and of the versions of PGlite and the job queue, so a template made before a
 * migration or an upgrade is never used: the server then makes its database the long way.
 */
export function embeddedTemplateFile(): string {
  const digest = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', 'pg-boss']) {
    digest.update(
      `${pkg}@${(JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
  }
  for (const file of listFiles(migrationsFolder))
    digest.update(file).update(readFileSync(path.join(migrationsFolder, file)));
  return path.join(root, 'node_modules/.cache/tripdesk', `pglite-${digest.digest('hex').slice(0, 16)}.tar`);
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    )
    .sort();
}
