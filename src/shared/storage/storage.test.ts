import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type S3Server } from '../../../tests/support/s3.ts';
import { createFileStore, storeFile, type FileStore } from './index.ts';

/**
 * The one storage interface, the same tests on both drivers: DATA_DIR/files, and a real
 * S3-protocol server (s3rver) started here.
 */
let s3: S3Server;
let dataDir: string;
const stores: Record<'local' | 's3', () => FileStore> = {
  local: () => createFileStore({ driver: 'local', dataDir }),
  s3: () => createFileStore(s3.storage),
};

beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-storage-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
async function names(files: FileStore, kind: 'logos' | 'documents' | 'passports') {
  const out: string[] = [];
  for await (const f of files.list(kind)) out.push(f.name);
  return out.sort();
}

describe.each(['local', 's3'] as const)('the %s driver', (driver) => {
  let files: FileStore;
  beforeAll(() => {
    files = stores[driver]();
  });
  afterAll(() => files.close());

  it('keeps a file given whole and gives it back as bytes, as a stream and by its size', async () => {
    const bytes = randomBytes(3000);
    const name = await storeFile(files, 'logos', bytes, 'png');
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect((await files.read('logos', name))!.equals(bytes)).toBe(true);
    expect((await bytesOf((await files.open('logos', name))!)).equals(bytes)).toBe(true);
    expect(await files.stat('logos', name)).toMatchObject({ name, bytes: 3000 });
    expect(await names(files, 'logos')).toContain(name);
    // a kind is a folder of its own
    expect(await files.stat('documents', name)).toBeNull();
  });

  it('streams a file larger than one upload part without holding it, and counts its bytes', async () => {
    // 12 MB in 64 KB chunks: more than two of lib-storage's 5 MB parts
    const chunk = randomBytes(64 * 1024);
    const count = 192;
    const hash = createHash('sha256');
    for (let i = 0; i < count; i++) hash.update(chunk);
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < count; i++) yield chunk;
      })(),
    );
    expect(await files.put('documents', 'large.pdf', body, 'application/pdf')).toBe(count * chunk.length);
    const back = await bytesOf((await files.open('documents', 'large.pdf'))!);
    expect(back.length).toBe(count * chunk.length);
    expect(sha(back)).toBe(hash.digest('hex'));
    await files.remove('documents', 'large.pdf');
  });

  it('says null for a file that is not there, and removing one twice is no error', async () => {
    expect(await files.open('passports', 'none.jpg')).toBeNull();
    expect(await files.read('passports', 'none.jpg')).toBeNull();
    expect(await files.stat('passports', 'none.jpg')).toBeNull();
    const name = await storeFile(files, 'passports', Buffer.from('scan'), 'jpg');
    await files.remove('passports', name);
    await files.remove('passports', name);
    expect(await files.stat('passports', name)).toBeNull();
    expect(await names(files, 'passports')).not.toContain(name);
  });

  it('keeps nothing of a stream that fails half way', async () => {
    const before = await names(files, 'documents');
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(1000);
        throw new Error('the upload broke off');
      })(),
    );
    await expect(files.put('documents', 'broken.pdf', failing)).rejects.toThrow();
    expect(await files.stat('documents', 'broken.pdf')).toBeNull();
    expect(await names(files, 'documents')).toEqual(before);
  });

  it('never leaves its kind: a stored name is reduced to its last part', async () => {
    await files.put('logos', '../../escape.png', Buffer.from('x'));
    expect(await files.stat('logos', 'escape.png')).toMatchObject({ bytes: 1 });
    expect(await files.stat('documents', '../logos/escape.png')).toBeNull();
    await expect(files.put('logos', '..', Buffer.from('x'))).rejects.toThrow('not a file name');
  });

  it('lists every file of a kind, past one page of a listing', async () => {
    const made = await Promise.all(
      Array.from({ length: 25 }, () => storeFile(files, 'passports', Buffer.from('p'), 'jpg')),
    );
    const listed = await names(files, 'passports');
    for (const n of made) expect(listed).toContain(n);
    for (const f of [...listed]) await files.remove('passports', f);
    expect(await names(files, 'passports')).toEqual([]);
  });

  it('is ready when it can be reached and written to', async () => {
    await expect(files.check()).resolves.toBeUndefined();
  });
});

describe('readiness of a store that is not there', () => {
  it('fails for a bucket that does not exist, and for a folder that cannot be made', async () => {
    const missing = createFileStore({ ...s3.storage, bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toThrow();
    missing.close();
    // DATA_DIR is a file: DATA_DIR/files cannot be made
    await createFileStore({ driver: 'local', dataDir }).put('logos', 'a-file', Buffer.from('x'));
    const blocked = createFileStore({ driver: 'local', dataDir: path.join(dataDir, 'files', 'logos', 'a-file') });
    await expect(blocked.check()).rejects.toThrow();
  });
});

describe('S3_PREFIX', () => {
  it('keeps Tripdesk’s files in a folder of a shared bucket', async () => {
    const files = createFileStore({ ...s3.storage, prefix: 'tenant-a' });
    const other = createFileStore(s3.storage);
    const name = await storeFile(files, 'logos', Buffer.from('in a prefix'), 'png');
    expect(await names(files, 'logos')).toEqual([name]);
    // the bucket's root sees it under the prefix only, not as one of its own logos
    expect(await names(other, 'logos')).not.toContain(name);
    files.close();
    other.close();
  });
});
