import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { TripDocument } from '../../../contract/trips.ts';
import type { Db } from '../../../db/client.ts';
import { filesDir, storeFile } from '../../../db/files.ts';
import { tripDocuments, trips } from '../../../db/schema/index.ts';
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

  private async assertTrip(tripId: number, asField: boolean) {
    const [trip] = await this.db.select({ id: trips.id, deletedAt: trips.deletedAt }).from(trips).where(eq(trips.id, tripId));
    if (!trip || trip.deletedAt) {
      if (asField) throw validationError({ trip_id: ['The selected trip is invalid.'] });
      throw notFound('Trip not found.');
    }
  }

  async list(tripId: number): Promise<TripDocument[]> {
    await this.assertTrip(tripId, false);
    const rows = await this.db.select().from(tripDocuments).where(eq(tripDocuments.tripId, tripId)).orderBy(asc(tripDocuments.id));
    return rows.map((r) => this.toDocument(r));
  }

  async create(v: { trip_id: number; name: string }): Promise<TripDocument> {
    await this.assertTrip(v.trip_id, true);
    const [row] = await this.db.insert(tripDocuments).values({ tripId: v.trip_id, name: v.name }).returning();
    return this.toDocument(row!);
  }

  private async row(id: number): Promise<Row> {
    const [row] = await this.db.select().from(tripDocuments).where(eq(tripDocuments.id, id));
    if (!row) throw notFound('Document not found.');
    return row;
  }

  /** A deleted trip's documents stay as they were. */
  private async liveRow(id: number): Promise<Row> {
    const row = await this.row(id);
    const [trip] = await this.db.select({ deletedAt: trips.deletedAt }).from(trips).where(eq(trips.id, row.tripId));
    if (trip?.deletedAt) throw new HttpError(422, 'This trip has been deleted, so it can no longer be changed.');
    return row;
  }

  /** The new file replaces the old one only once it is stored and recorded. */
  async upload(id: number, file: { filename: string; bytes: Buffer } | null): Promise<TripDocument> {
    const row = await this.liveRow(id);
    if (!file || file.bytes.length === 0) throw validationError({ document_file: ['The document file field is required.'] });
    const kind = await detectDocument(file.bytes, file.filename);
    if (!kind) {
      throw validationError({ document_file: ['The document file must be a PDF, an image, a Word or Excel file, or a text file.'] });
    }
    const stored = storeFile(this.dataDir, 'documents', file.bytes, kind.ext);
    try {
      const [updated] = await this.db
        .update(tripDocuments)
        .set({
          storedFile: stored,
          filename: safeFilename(file.filename, kind.ext),
          mimeType: kind.mime,
          sizeBytes: file.bytes.length,
          uploadedAt: new Date(this.now()),
        })
        .where(eq(tripDocuments.id, id))
        .returning();
      this.removeFile(row.storedFile);
      return this.toDocument(updated!);
    } catch (error) {
      this.removeFile(stored);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    const row = await this.liveRow(id);
    await this.db.delete(tripDocuments).where(eq(tripDocuments.id, id));
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
