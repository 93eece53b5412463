import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createFileStore, storeFile } from '../shared/storage/index.ts';
import { charities } from '../db/schema/index.ts';
import { createTestDatabase } from '../../tests/support/test-app.ts';
import { sweepOrphanFiles } from './files-sweep.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const age = (file: string, ms: number) => {
  const t = (Date.now() - ms) / 1000;
  utimesSync(file, t, t);
};

describe('files that no row names', () => {
  it('are removed once an hour old; named files and uploads still on their way stay', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
    const files = createFileStore({ driver: 'local', dataDir });
    const named = await storeFile(files, 'logos', Buffer.from('named'), 'png');
    const orphan = await storeFile(files, 'logos', Buffer.from('orphan'), 'png');
    const fresh = await storeFile(files, 'documents', Buffer.from('on its way'), 'pdf');
    // what a crash in the middle of a write leaves
    const partial = `${named}.part`;
    writeFileSync(path.join(dataDir, 'files', 'logos', partial), 'half a file');
    await database.db.insert(charities).values({ name: 'Has a logo', logoFile: named });
    const file = (kind: string, name: string) => path.join(dataDir, 'files', kind, name);
    // every time from the one clock the sweep reads (the file system's own may differ from it,
    // as under faketime in CI)
    age(file('logos', named), 2 * 3_600_000);
    age(file('logos', orphan), 2 * 3_600_000);
    age(file('logos', partial), 2 * 3_600_000);
    age(file('documents', fresh), 60_000);

    expect(await sweepOrphanFiles(database.db, files)).toEqual({ logos: 2, documents: 0, passports: 0 });
    expect(existsSync(file('logos', named))).toBe(true);
    expect(existsSync(file('logos', orphan))).toBe(false);
    expect(existsSync(file('logos', partial))).toBe(false);
    expect(existsSync(file('documents', fresh))).toBe(true);
  });
});
