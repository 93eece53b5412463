import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb, migrationsFolder, queryRows } from '../../db/client.ts';
import { embeddedTemplateFile } from '../../db/template.ts';
import { writeEmbeddedTemplate } from './db-template.ts';

const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

describe("the embedded database's template (what a first start copies)", () => {
  it('is named by the migrations it holds, in the install folder', () => {
    const file = embeddedTemplateFile();
    expect(file).toBe(embeddedTemplateFile());
    expect(path.dirname(file)).toBe(path.resolve(migrationsFolder, '../../../node_modules/.cache/tripdesk'));
    expect(path.basename(file)).toMatch(/^pglite-[0-9a-f]{16}\.tar$/);
  });

  it('gives a new data folder every migration and the job queue, and is never laid over an existing database', async () => {
    const template = path.join(tmp('template-'), 'template.tar');
    await writeEmbeddedTemplate(template);
    const migrated = async (db: Awaited<ReturnType<typeof createDb>>['db']) =>
      (await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`))[0]!.n;

    const dir = path.join(tmp('first-start-'), 'pglite');
    const fresh = await createDb({ pgliteDir: dir, template });
    // migrated before migrate() is called, with pg-boss's tables in place
    expect(await migrated(fresh.db)).toBeGreaterThan(25);
    expect(
      await queryRows(fresh.db, sql`SELECT 1 FROM pg_tables WHERE schemaname = 'pgboss' AND tablename = 'job'`),
    ).toHaveLength(1);
    await fresh.migrate();
    await fresh.db.execute(sql`INSERT INTO charities (name, charity_type_id) VALUES ('Kept across restarts', 1)`);
    await fresh.close();

    const again = await createDb({ pgliteDir: dir, template });
    expect(await queryRows(again.db, sql`SELECT name FROM charities`)).toEqual([{ name: 'Kept across restarts' }]);
    await again.close();
  });

  it('is optional: a missing file means the long way, initdb and every migration', async () => {
    const database = await createDb({
      pgliteDir: path.join(tmp('no-template-'), 'pglite'),
      template: path.join(tmp('none-'), 'absent.tar'),
    });
    expect(await queryRows(database.db, sql`SELECT 1 FROM pg_tables WHERE tablename = 'bookings'`)).toHaveLength(0);
    await database.migrate();
    expect(await queryRows(database.db, sql`SELECT 1 FROM pg_tables WHERE tablename = 'bookings'`)).toHaveLength(1);
    await database.close();
  });
});
