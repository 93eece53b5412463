import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { FILE_KINDS, type FileKind, type FileStore } from './types.ts';

export type MigrateProgress = { done: number; total: number; kind: FileKind; name: string };
export type MigrateResult = {
  total: number;
  copied: number;
  alreadyThere: number;
  failed: Array<{ kind: FileKind; name: string; reason: string }>;
};

async function sha256(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Uint8Array);
  return hash.digest('hex');
}

/**
 * Copies every file of every kind from one store to another (`npm run storage:migrate`), each
 * verified by size and SHA-256 read back from the target. Resumable: a file the target already
 * holds with the same size and checksum is left as it is, so a run cut short is simply run
 * again. Nothing is removed from the source. A file that fails is reported and the rest go on.
 */
export async function migrateFiles(
  from: FileStore,
  to: FileStore,
  onProgress: (p: MigrateProgress) => void = () => {},
): Promise<MigrateResult> {
  const files: Array<{ kind: FileKind; name: string; bytes: number }> = [];
  for (const kind of FILE_KINDS) {
    for await (const f of from.list(kind)) {
      // a write a crash cut short, never a file of ours
      if (!f.name.endsWith('.part')) files.push({ kind, name: f.name, bytes: f.bytes });
    }
  }
  const result: MigrateResult = { total: files.length, copied: 0, alreadyThere: 0, failed: [] };
  let done = 0;
  for (const f of files) {
    try {
      const source = await sha256(await from.open(f.kind, f.name));
      if (source === null) throw new Error('gone from the source while copying');
      const there = await to.stat(f.kind, f.name);
      if (there?.bytes === f.bytes && (await sha256(await to.open(f.kind, f.name))) === source) {
        result.alreadyThere += 1;
      } else {
        const body = await from.open(f.kind, f.name);
        if (!body) throw new Error('gone from the source while copying');
        const written = await to.put(f.kind, f.name, body);
        const copied = await to.stat(f.kind, f.name);
        if (written !== f.bytes || copied?.bytes !== f.bytes)
          throw new Error(`size differs: ${f.bytes} bytes here, ${copied?.bytes ?? 'none'} there`);
        if ((await sha256(await to.open(f.kind, f.name))) !== source) throw new Error('checksum differs after copying');
        result.copied += 1;
      }
    } catch (error) {
      result.failed.push({
        kind: f.kind,
        name: f.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    done += 1;
    onProgress({ done, total: files.length, kind: f.kind, name: f.name });
  }
  return result;
}
