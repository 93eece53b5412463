import { constants, createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeName, StorageUnavailable, type FileKind, type FileStore, type StoredFile } from './types.ts';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
/** The disk's refusals (not the request's trouble): full, read-only, not ours to write. */
const DISK = new Set(['EACCES', 'EPERM', 'ENOSPC', 'EDQUOT', 'EROFS', 'ENOTDIR', 'EIO', 'EEXIST']);

/** Files under one folder (DATA_DIR/files), a folder per kind, readable by the server only. */
export class LocalFileStore implements FileStore {
  readonly driver = 'local' as const;
  readonly where: string;

  constructor(private readonly root: string) {
    this.where = root;
  }

  private async dir(kind: FileKind): Promise<string> {
    const dir = path.join(this.root, kind);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async put(kind: FileKind, name: string, body: Buffer | Readable): Promise<number> {
    const file = path.join(this.root, kind, safeName(name));
    // written beside, then renamed: a reader never sees half a file, a failed write leaves none
    // (a crash mid-write leaves a .part, which the hourly sweep removes)
    const partial = `${file}.part`;
    try {
      await this.dir(kind);
      if (Buffer.isBuffer(body)) await writeFile(partial, body, { mode: 0o640 });
      else await pipeline(body, createWriteStream(partial, { mode: 0o640 }));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined);
      if (DISK.has((error as NodeJS.ErrnoException).code ?? ''))
        throw new StorageUnavailable(
          `the file store could not store a file: ${(error as NodeJS.ErrnoException).code}`,
          { cause: error },
        );
      throw error;
    }
    return (await stat(file)).size;
  }

  async open(kind: FileKind, name: string): Promise<Readable | null> {
    const stream = createReadStream(path.join(this.root, kind, safeName(name)));
    // opened before it is handed over: a file that is not there is null, a disk that fails is
    // the store's trouble (503), and neither surfaces half way through a reply
    try {
      await once(stream, 'open');
    } catch (error) {
      stream.destroy();
      if (missing(error)) return null;
      throw new StorageUnavailable(`the file store could not read a file: ${(error as NodeJS.ErrnoException).code}`, {
        cause: error,
      });
    }
    return stream;
  }

  async read(kind: FileKind, name: string): Promise<Buffer | null> {
    try {
      return await readFile(path.join(this.root, kind, safeName(name)));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async stat(kind: FileKind, name: string): Promise<StoredFile | null> {
    try {
      const s = await stat(path.join(this.root, kind, safeName(name)));
      return { name: safeName(name), bytes: s.size, modifiedMs: s.mtimeMs };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    await rm(path.join(this.root, kind, safeName(name)), { force: true });
  }

  async *list(kind: FileKind): AsyncIterable<StoredFile> {
    let names: string[];
    try {
      names = await readdir(path.join(this.root, kind));
    } catch (error) {
      if (missing(error)) return;
      throw error;
    }
    // .part files too: one left by a crash is for the sweep to remove (storage:migrate skips them)
    for (const name of names) {
      const found = await this.stat(kind, name);
      if (found) yield found;
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  close(): void {}
}
