import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { TripDocument } from '../../../contract/trips.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { filesDir, storeFile } from '../../../db/files.ts';
import { tripDocuments, trips } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { HttpError, notFound, validationError } from '../../errors.ts';

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

export async function detectDocument(bytes: Buffer, filename: string): Promise<DetectedFile | null> {
  const type = await fileTypeFromBuffer(bytes);
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
  if (!TEXT_NAMES.test(filename) || !isPlainText(bytes)) return null;
  return filename.toLowerCase().endsWith('.csv') ? { ext: 'csv', mime: 'text/csv' } : { ext: 'txt', mime: 'text/plain' };
}

function isPlainText(bytes: Buffer): boolean {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // control characters other than tab, line feed and carriage return mean it is not text
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
    }
    return true;
  } catch {
    return false;
  }
}

type Row = typeof tripDocuments.$inferSelect;

export class DocumentService {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
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
    const [trip] = await db.select({ id: trips.id, name: trips.name, deletedAt: trips.deletedAt }).from(trips).where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) {
      if (asField) throw validationError({ trip_id: ['The selected trip is invalid.'] });
      throw notFound('Trip not found.');
    }
    return trip;
  }

  async list(tripId: number): Promise<TripDocument[]> {
    await this.assertTrip(this.db, tripId, false);
    const rows = await this.db.select().from(tripDocuments).where(eq(tripDocuments.tripId, tripId)).orderBy(asc(tripDocuments.id));
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

  /** The new file replaces the old one only once it is stored and recorded. */
  async upload(id: number, file: { filename: string; bytes: Buffer } | null): Promise<TripDocument> {
    await this.liveRow(this.db, id);
    if (!file || file.bytes.length === 0) throw validationError({ document_file: ['The document file field is required.'] });
    const kind = await detectDocument(file.bytes, file.filename);
    if (!kind) {
      throw validationError({ document_file: ['The document file must be a PDF, an image, a Word or Excel file, or a text file.'] });
    }
    const stored = storeFile(this.dataDir, 'documents', file.bytes, kind.ext);
    try {
      const { before, updated } = await this.db.transaction(async (tx) => {
        // read again under the lock: the trip may have gone, or another file come, since the check above
        const { row, tripName } = await this.liveRow(tx, id, true);
        const filename = safeFilename(file.filename, kind.ext);
        const [u] = await tx
          .update(tripDocuments)
          .set({ storedFile: stored, filename, mimeType: kind.mime, sizeBytes: file.bytes.length, uploadedAt: new Date(this.now()) })
          .where(eq(tripDocuments.id, id))
          .returning();
        await audit(tx, {
          action: 'document.uploaded',
          subject: { type: 'document', id },
          tripId: row.tripId,
          summary: `uploaded the file ${filename} for the document ${row.name} of the trip ${tripName}`,
          details: { file_name: filename, size: file.bytes.length, type: kind.mime, ...(row.filename ? { replaced_file_name: row.filename } : {}) },
        });
        return { before: row, updated: u! };
      });
      this.removeFile(before.storedFile);
      return this.toDocument(updated);
    } catch (error) {
      this.removeFile(stored);
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
    this.removeFile(row.storedFile);
  }

  /** The file behind a signed address, or null when the address is expired, altered or stale. */
  async resolveSigned(id: number, expires: number, signature: string): Promise<{ file: string; mime: string; filename: string } | null> {
    if (!Number.isInteger(expires) || expires * 1000 < this.now()) return null;
    const [row] = await this.db.select().from(tripDocuments).where(eq(tripDocuments.id, id));
    if (!row?.storedFile) return null;
    const expected = Buffer.from(this.signature(id, row.storedFile, expires));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const file = path.join(filesDir(this.dataDir, 'documents'), row.storedFile);
    if (!existsSync(file)) return null;
    return { file, mime: row.mimeType ?? 'application/octet-stream', filename: row.filename ?? `document.${path.extname(row.storedFile)}` };
  }

  private removeFile(name: string | null) {
    if (!name) return;
    try {
      unlinkSync(path.join(filesDir(this.dataDir, 'documents'), path.basename(name)));
    } catch {
      // already gone
    }
  }
}

/** The uploader's file name, made safe to show and to send back in a download header. */
export function safeFilename(name: string, ext: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).replace(/[^\w.\- ()]+/g, '_').slice(0, 120).trim();
  if (!base || base.startsWith('.')) return `document.${ext}`;
  return base;
}
