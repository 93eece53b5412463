import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type S3Server } from '../../../tests/support/s3.ts';
import { createFileStore, storeFile, type FileStore } from './index.ts';
import { migrateFiles } from './migrate.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let s3: S3Server;
let dataDir: string;
let local: FileStore;
let bucket: FileStore;
const names: string[] = [];

beforeAll(async () => {
  s3 = await startS3('tripdesk-migrate');
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-migrate-'));
  local = createFileStore({ driver: 'local', dataDir });
  bucket = createFileStore(s3.storage);
  names.push(await storeFile(local, 'logos', randomBytes(2000), 'png'));
  names.push(await storeFile(local, 'documents', randomBytes(300_000), 'pdf'));
  names.push(await storeFile(local, 'passports', randomBytes(50_000), 'jpg'));
  names.push(await storeFile(local, 'passports', randomBytes(0), 'jpg'));
  // a write a crash cut short: never copied
  writeFileSync(path.join(dataDir, 'files', 'documents', 'cut.pdf.part'), 'half');
});
afterAll(async () => {
  bucket.close();
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('migrateFiles, local to S3', () => {
  it('copies every file of every kind, checked, and a second run copies nothing', async () => {
    const seen: number[] = [];
    const first = await migrateFiles(local, bucket, (p) => seen.push(p.done));
    expect(first).toEqual({ total: 4, copied: 4, alreadyThere: 0, failed: [] });
    expect(seen).toEqual([1, 2, 3, 4]);
    for (const kind of ['logos', 'documents', 'passports'] as const) {
      for await (const f of local.list(kind)) {
        if (f.name.endsWith('.part')) expect(await bucket.stat(kind, f.name)).toBeNull();
        else expect((await bucket.read(kind, f.name))!.equals((await local.read(kind, f.name))!)).toBe(true);
      }
    }
    expect(await migrateFiles(local, bucket)).toEqual({ total: 4, copied: 0, alreadyThere: 4, failed: [] });
  });

  it('copies again a file the bucket holds with other bytes of the same size (resuming after a bad copy)', async () => {
    const [logo] = names;
    const size = (await local.stat('logos', logo!))!.bytes;
    await bucket.put('logos', logo!, randomBytes(size));
    expect(await migrateFiles(local, bucket)).toEqual({ total: 4, copied: 1, alreadyThere: 3, failed: [] });
    expect((await bucket.read('logos', logo!))!.equals((await local.read('logos', logo!))!)).toBe(true);
  });

  it('is the command an operator runs: npm run storage:migrate -- --to s3', async () => {
    await storeFile(local, 'documents', randomBytes(1000), 'pdf');
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      S3_BUCKET: s3.storage.bucket,
      S3_ENDPOINT: s3.storage.endpoint!,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli/storage-migrate.ts', '--to', 's3'],
      { cwd: root, env },
    );
    expect(stdout).toContain('5 files: 1 copied, 4 already there, 0 failed.');
    expect(stdout).toContain('Set STORAGE=s3 and restart.');
    const refused = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli/storage-migrate.ts'],
      { cwd: root, env },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('--to s3') });
  }, 60_000);
});
