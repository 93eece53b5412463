import path from 'node:path';
import { LocalFileStore } from './local.ts';
import { S3FileStore } from './s3.ts';
import { newFileName, type FileKind, type FileStore, type StorageConfig } from './types.ts';

export * from './types.ts';

export function createFileStore(config: StorageConfig): FileStore {
  return config.driver === 's3' ? new S3FileStore(config) : new LocalFileStore(path.join(config.dataDir, 'files'));
}

/** Stores bytes under a new name; resolves with the name (for seeds, tests and small files). */
export async function storeFile(
  files: FileStore,
  kind: FileKind,
  bytes: Uint8Array,
  extension: string,
): Promise<string> {
  const name = newFileName(extension);
  await files.put(kind, name, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return name;
}
