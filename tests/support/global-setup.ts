import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb } from '../../src/db/client.ts';
import { writeEmbeddedTemplate } from '../../src/server/ops/db-template.ts';
import { startJobQueue } from '../../src/server/jobs/queue.ts';

/**
 * Migrates a database once per run; every test file then starts from a copy of it
 * (a PGlite data dump, or a PostgreSQL database made from a template).
 */
export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `tripdesk_test_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const templateUrl = withDatabase(url, template);
    const database = await createDb({ databaseUrl: templateUrl, poolSize: 1 });
    await database.migrate();
    // the job queue's own tables too (pg-boss installs them on its first start)
    await (await startJobQueue({ database, work: false, queues: [] })).stop();
    await database.close();
    process.env.TRIPDESK_TEST_TEMPLATE_DB = template;
    return async () => {
      // drop what the files made, then the template
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'tripdesk_test_%'`,
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-test-'));
  const file = path.join(dir, 'template.tar');
  await writeEmbeddedTemplate(file);
  process.env.TRIPDESK_TEST_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}
