import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { FILE_KINDS, type FileKind, type FileStore } from '../shared/storage/index.ts';

/** Which column names the files of each kind. */
const OWNERS: Record<FileKind, ReturnType<typeof sql>> = {
  logos: sql`select logo_file as name from charities where logo_file is not null`,
  documents: sql`select stored_file as name from trip_documents where stored_file is not null`,
  passports: sql`select passport_image_file as name from bookings where passport_image_file is not null`,
};

/**
 * A file is written before the row that names it is committed, and the file it replaces is
 * removed after: a crash between the two leaves a file no row names (bench/crash.ts found them).
 * This removes such files once they are older than `graceMs`, so an upload still on its way is
 * never touched. Run at start and hourly with the other purges; returns what it removed.
 */
export async function sweepOrphanFiles(
  db: Db,
  files: FileStore,
  graceMs = 3_600_000,
  now = Date.now(),
): Promise<Record<FileKind, number>> {
  const removed: Record<FileKind, number> = { logos: 0, documents: 0, passports: 0 };
  for (const kind of FILE_KINDS) {
    // the files first, then the names: a file stored after the list is not looked at, and one
    // named after it is younger than the grace
    const old: string[] = [];
    for await (const f of files.list(kind)) if (now - f.modifiedMs >= graceMs) old.push(f.name);
    if (!old.length) continue;
    const named = new Set((await queryRows<{ name: string }>(db, OWNERS[kind])).map((r) => path.basename(r.name)));
    for (const name of old) {
      if (named.has(name)) continue;
      try {
        await files.remove(kind, name);
        removed[kind] += 1;
      } catch {
        // not ours to remove now: the next sweep tries again
      }
    }
  }
  return removed;
}
