import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Uploaded files live under DATA_DIR/files/<kind>, named by the server, never inside the web root. */
export type FileKind = 'logos' | 'documents' | 'passports';

export function filesDir(dataDir: string, kind: FileKind): string {
  const dir = path.join(dataDir, 'files', kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function storeFile(dataDir: string, kind: FileKind, bytes: Uint8Array, extension: string): string {
  const name = `${randomBytes(16).toString('hex')}.${extension}`;
  writeFileSync(path.join(filesDir(dataDir, kind), name), bytes, { mode: 0o640 });
  return name;
}
