import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { TripDocument } from '../../../contract/trips.ts';
import type { Db, Tx } from '../../../db/client.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { tripDocuments, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';
import type { Accepted, StoredUpload } from '../../uploads.ts';

/** How long a document's download address works. */
export const SIGNED_URL_SECONDS = 60 * 60;

// PDF, images, Word, Excel, told apart by their bytes; plain text and CSV have no signature and are checked as text
const ACCEPTED: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  // the old .doc and .xls are both Compound File Binary
  'application/x-cfb': 'cfb',
};
const TEXT_NAMES = /\.(txt|csv)$/i;

export type DetectedFile = { ext: string; mime: string };

/**
 * What a document's first bytes say it is (readUpload's check before anything is stored): PDF,
 * images, Word, Excel by their signature; a .txt or .csv is plain UTF-8 text, checked to its end
 * as it streams (`rest`).
 */
export async function acceptDocument(head: Buffer, filename: string): Promise<Accepted | null> {
  const type = await fileTypeFromBuffer(head);
  if (type) {
    const ext = ACCEPTED[type.mime];
    if (!ext) return null;
    if (ext === 'cfb') {
      const named = /\.(doc|xls)$/i.exec(filename)?.[1]?.toLowerCase();
      if (!named) return null;
      return { ext: named, mime: named === 'doc' ? 'application/msword' : 'application/vnd.ms-excel' };
    }
    return { ext, mime: type.mime };
  }
  if (!TEXT_NAMES.test(filename)) return null;
  const rest = plainTextCheck();
  if (!rest(head)) return null;
  return filename.toLowerCase().endsWith('.csv')
    ? { ext: 'csv', mime: 'text/csv', rest }
    : { ext: 'txt', mime: 'text/plain', rest };
}

/** The same check over a whole file's bytes. */
export async function detectDocument(bytes: Buffer, filename: string): Promise<DetectedFile | null> {
  const accepted = await acceptDocument(bytes, filename);
  if (!accepted || (accepted.rest && !accepted.rest(null))) return null;
  return { ext: accepted.ext, mime: accepted.mime };
}

/** Chunk by chunk (null at the end): valid UTF-8 with no control characters but tab, line feed and carriage return. */
function plainTextCheck(): (chunk: Buffer | null) => boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return (chunk) => {
    try {
      const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
      }
      return true;
    } catch {
      return false;
    }
  };
}

type Row = typeof tripDocuments.$inferSelect;

export class DocumentService {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    // a key of its own, derived from the app secret, so a leaked URL signs nothing else
    this.key = createHmac('sha256', secret).update('tripdesk:document-urls').digest();
  }

  /** Binds the address to the document, the exact file now stored and the expiry time. */
  private signature(id: number, storedFile: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${id}:${storedFile}:${expires}`).digest('base64url');
  }

  signedUrl(row: Row): string | null {
    if (!row.storedFile) return null;
    const expires = Math.floor(this.now() / 1000) + SIGNED_URL_SECONDS;
    return `/files/documents/${row.id}?expires=${expires}&signature=${this.signature(row.id, row.storedFile, expires)}`;
  }

  private toDocument(row: Row): TripDocument {
    return {
      id: row.id,
      trip_id: row.tripId,
      name: row.name,
      filename: row.filename,
      size: row.sizeBytes,
      uploaded_at: row.uploadedAt ? row.uploadedAt.toISOString() : null,
      signed_url: this.signedUrl(row),
    };
  }

  private async assertTrip(db: Db | Tx, tripId: number, asField: boolean) {
    const [trip] = await db
      .select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt })
      .from(trips)
      .where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) {
      if (asField) throw validationError({ trip_id: ['The selected trip is invalid.'] });
      throw notFound('Trip not found.');
    }
    return trip;
  }

  async list(tripId: number): Promise<TripDocument[]> {
    await this.assertTrip(this.db, tripId, false);
    const rows = await this.db
      .select()
      .from(tripDocuments)
      .where(eq(tripDocuments.tripId, tripId))
      .orderBy(asc(tripDocuments.id));
    return rows.map((r) => this.toDocument(r));
  }

  async create(v: { trip_id: number; name: string }): Promise<TripDocument> {
    return this.db.transaction(async (tx) => {
      const trip = await this.assertTrip(tx, v.trip_id, true);
      const [row] = await tx.insert(tripDocuments).values({ tripId: v.trip_id, name: v.name }).returning();
      await audit(tx, {
        action: 'document.created',
        subject: { type: 'document', id: row!.id },
        tripId: row!.tripId,
        summary: `added the document ${row!.name} to the trip ${trip.name}`,
      });
      return this.toDocument(row!);
    });
  }

  /** A deleted trip's documents stay as they were; `lock` when the document is about to change. */
  private async liveRow(db: Db | Tx, id: number, lock = false): Promise<{ row: Row; tripName: string }> {
    const query = db
      .select({ row: tripDocuments, tripName: trips.name, deletedAt: trips.deletedAt })
      .from(tripDocuments)
      .innerJoin(trips, eq(trips.id, tripDocuments.tripId))
      .where(eq(tripDocuments.id, id));
    const [found] = await (lock ? query.for('update', { of: tripDocuments }) : query);
    if (!found) throw notFound('Document not found.');
    if (found.deletedAt) throw new HttpError(422, 'This trip has been deleted, so it can no longer be changed.');
    return { row: found.row, tripName: found.tripName };
  }

  /** The new file, already stored (its bytes checked by acceptDocument), replaces the old one once it is recorded. */
  async upload(id: number, file: StoredUpload | null): Promise<TripDocument> {
    try {
      await this.liveRow(this.db, id);
      if (!file) throw validationError({ document_file: ['The document file field is required.'] });
      const { before, updated } = await this.db.transaction(async (tx) => {
        // read again under the lock: the trip may have gone, or another file come, since the check above
        const { row, tripName } = await this.liveRow(tx, id, true);
        const filename = safeFilename(file.filename, file.ext);
        const [u] = await tx
          .update(tripDocuments)
          .set({
            storedFile: file.name,
            filename,
            mimeType: file.mime,
            sizeBytes: file.bytes,
            uploadedAt: new Date(this.now()),
          })
          .where(eq(tripDocuments.id, id))
          .returning();
        await audit(tx, {
          action: 'document.uploaded',
          subject: { type: 'document', id },
          tripId: row.tripId,
          summary: `uploaded the file ${filename} for the document ${row.name} of the trip ${tripName}`,
          details: {
            file_name: filename,
            size: file.bytes,
            type: file.mime,
            ...(row.filename ? { replaced_file_name: row.filename } : {}),
          },
        });
        return { before: row, updated: u! };
      });
      await this.removeFile(before.storedFile);
      return this.toDocument(updated);
    } catch (error) {
      if (file) await this.removeFile(file.name);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    const row = await this.db.transaction(async (tx) => {
      const { row, tripName } = await this.liveRow(tx, id, true);
      await tx.delete(tripDocuments).where(eq(tripDocuments.id, id));
      await audit(tx, {
        action: 'document.deleted',
        subject: { type: 'document', id },
        tripId: row.tripId,
        summary: `deleted the document ${row.name} of the trip ${tripName}`,
        details: row.filename ? { file_name: row.filename } : null,
      });
      return row;
    });
    await this.removeFile(row.storedFile);
  }

  /** The file behind a signed address, or null when the address is expired, altered or stale. */
  async resolveSigned(
    id: number,
    expires: number,
    signature: string,
  ): Promise<{ stream: Readable; mime: string; filename: string } | null> {
    if (!Number.isInteger(expires) || expires * 1000 < this.now()) return null;
    const [row] = await this.db.select().from(tripDocuments).where(eq(tripDocuments.id, id));
    if (!row?.storedFile) return null;
    const expected = Buffer.from(this.signature(id, row.storedFile, expires));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const stream = await this.files.open('documents', row.storedFile);
    if (!stream) return null;
    return {
      stream,
      mime: row.mimeType ?? 'application/octet-stream',
      filename: row.filename ?? `document.${path.extname(row.storedFile)}`,
    };
  }

  private async removeFile(name: string | null) {
    if (!name) return;
    await this.files.remove('documents', name).catch(() => undefined);
  }
}

/** The uploader's file name, made safe to show and to send back in a download header. */
export function safeFilename(name: string, ext: string): string {
  const base = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ()]+/g, '_')
    .slice(0, 120)
    .trim();
  if (!base || base.startsWith('.')) return `document.${ext}`;
  return base;
}
