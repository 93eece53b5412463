import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDb, pgliteExtensions } from '../../db/client.ts';
import { startJobQueue } from '../jobs/queue.ts';

/**
 * Writes a dump of a new embedded database with every migration applied and the job queue's
 * own tables installed: what a new data folder (the first `npm start`) or a test file starts from.
 */
export async function writeEmbeddedTemplate(file: string): Promise<void> {
  const client = await PGlite.create({ extensions: pgliteExtensions() });
  try {
    const database = await createDb({ pglite: client });
    await database.migrate();
    await (await startJobQueue({ database, work: false, queues: [] })).stop();
    const dump = await client.dumpDataDir('none');
    mkdirSync(path.dirname(file), { recursive: true });
    // written beside and renamed: a start that reads it never sees half a file
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
}
