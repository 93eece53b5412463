import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live: one interface for every feature that keeps a file, with
 * two drivers — `local` (DATA_DIR/files/<kind>/<name>, the default) and `s3` (any S3-compatible
 * store, key <prefix>/<kind>/<name>). Names are made by the server (`newFileName`), never taken
 * from a request; a name given here is reduced to its last part, so no path can climb out.
 */
export type FileKind = 'logos' | 'documents' | 'passports';
export const FILE_KINDS: readonly FileKind[] = ['logos', 'documents', 'passports'];

/** The store could not be reached or refused the operation (not: the file is not there). Answered 503. */
export class StorageUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailable';
  }
}

export type StoredFile = { name: string; bytes: number; modifiedMs: number };

export type FileStore = {
  readonly driver: 'local' | 's3';
  /** a short description for logs and the migration's report: a folder or s3://bucket/prefix */
  readonly where: string;
  /** Writes a file whole (a stream is streamed, never held in memory); resolves with its size. */
  put(kind: FileKind, name: string, body: Buffer | Readable, contentType?: string): Promise<number>;
  /** The file as a stream, or null when there is none. */
  open(kind: FileKind, name: string): Promise<Readable | null>;
  /** The file's bytes, or null (for small files: attachments, tests). */
  read(kind: FileKind, name: string): Promise<Buffer | null>;
  /** The file's size, or null when there is none. */
  stat(kind: FileKind, name: string): Promise<StoredFile | null>;
  /** Removes a file; no error when it is already gone. */
  remove(kind: FileKind, name: string): Promise<void>;
  /** Every file of a kind. */
  list(kind: FileKind): AsyncIterable<StoredFile>;
  /** Throws unless the store can be reached and written to (for /readyz). */
  check(): Promise<void>;
  /** Releases connections (the S3 client's sockets). */
  close(): void;
};

export type StorageConfig =
  | { driver: 'local'; dataDir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      prefix: string;
    };

/** A fresh, unguessable name with the extension the content was found to have. */
export function newFileName(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

/** The last part of a stored name: what is kept in a row can never point outside its kind. */
export function safeName(name: string): string {
  const base = path.basename(name);
  if (!base || base === '.' || base === '..') throw new Error(`not a file name: ${JSON.stringify(name)}`);
  return base;
}
