import type { Readable } from 'node:stream';
import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { Charity, CreateCharityInput, UpdateCharityInput } from '../../../contract/charities.ts';
import { CHARITY_TYPES } from '../../../contract/constants.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, charities, trips } from '../../../db/schema/index.ts';
import { audit, describeChanges, diff } from '../../audit/audit.ts';
import { HttpError, isForeignKeyViolation, notFound, validationError } from '../../errors.ts';
import type { FileStore } from '../../../shared/storage/index.ts';
import { detectImage, type StoredUpload } from '../../uploads.ts';
import { escapeLike } from '../../sql.ts';

type Row = typeof charities.$inferSelect;

function toCharity(row: Row): Charity {
  return {
    id: row.id,
    name: row.name,
    charity_type_id: row.charityTypeId,
    charity_type: { description: CHARITY_TYPES[row.charityTypeId] ?? 'Other' },
    url: row.url,
    // the file name in the address changes with the logo, so browsers may cache it
    logo_url: row.logoFile ? `/api/charities/${row.id}/logo?v=${row.logoFile.slice(0, 8)}` : null,
  };
}

export class CharityService {
  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
  ) {}

  async list(filter: { name?: string | undefined; type?: number | undefined }): Promise<Charity[]> {
    const where = and(
      filter.name ? ilike(charities.name, `%${escapeLike(filter.name)}%`) : undefined,
      filter.type ? eq(charities.charityTypeId, filter.type) : undefined,
    );
    const rows = await this.db
      .select()
      .from(charities)
      .where(where)
      .orderBy(asc(sql`lower(${charities.name})`), asc(charities.id));
    return rows.map(toCharity);
  }

  private async row(id: number): Promise<Row> {
    const [row] = await this.db.select().from(charities).where(eq(charities.id, id));
    if (!row) throw notFound('Charity not found.');
    return row;
  }

  async get(id: number): Promise<Charity> {
    return toCharity(await this.row(id));
  }

  async create(input: CreateCharityInput & { charity_type_id: number }): Promise<Charity> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(charities)
        .values({ name: input.name, charityTypeId: input.charity_type_id })
        .returning();
      await audit(tx, {
        action: 'charity.created',
        subject: { type: 'charity', id: row!.id },
        summary: `added the charity ${row!.name}`,
      });
      return toCharity(row!);
    });
  }

  async update(id: number, input: UpdateCharityInput & { charity_type_id: number }): Promise<Charity> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(charities).where(eq(charities.id, id)).for('update');
      if (!before) throw notFound('Charity not found.');
      const [row] = await tx
        .update(charities)
        .set({
          name: input.name,
          charityTypeId: input.charity_type_id,
          ...(input.url !== undefined ? { url: input.url } : {}),
          updatedAt: new Date(),
        })
        .where(eq(charities.id, id))
        .returning();
      const changes = diff({
        name: [before.name, row!.name],
        charity_type_id: [before.charityTypeId, row!.charityTypeId],
        url: [before.url, row!.url],
      });
      await audit(tx, {
        action: 'charity.updated',
        subject: { type: 'charity', id },
        changes,
        summary: describeChanges(changes, `the charity ${row!.name}`),
      });
      return toCharity(row!);
    });
  }

  /** A charity that trips or bookings refer to stays: deleting it would leave them pointing nowhere. */
  async delete(id: number): Promise<void> {
    const row = await this.row(id);
    const [[t], [b]] = await Promise.all([
      this.db.select({ n: count() }).from(trips).where(eq(trips.charityId, id)),
      this.db.select({ n: count() }).from(bookings).where(eq(bookings.charityId, id)),
    ]);
    const tripCount = Number(t?.n ?? 0);
    const bookingCount = Number(b?.n ?? 0);
    if (tripCount || bookingCount) {
      const parts = [
        tripCount ? `${tripCount} trip${tripCount === 1 ? '' : 's'}` : '',
        bookingCount ? `${bookingCount} booking${bookingCount === 1 ? '' : 's'}` : '',
      ].filter(Boolean);
      throw new HttpError(422, `This charity cannot be deleted because ${parts.join(' and ')} refer to it.`);
    }
    await this.db
      .transaction(async (tx) => {
        await tx.delete(charities).where(eq(charities.id, id));
        await audit(tx, {
          action: 'charity.deleted',
          subject: { type: 'charity', id },
          summary: `deleted the charity ${row.name}`,
        });
      })
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error))
          throw new HttpError(422, 'This charity cannot be deleted because trips or bookings refer to it.');
        throw error;
      });
    await this.removeFile(row.logoFile);
  }

  /** A logo is taken only when its bytes are a real PNG or JPEG (checked before it is stored). */
  static readonly acceptLogo = (head: Buffer) => detectImage(head);

  /** The new logo, already stored, replaces the old one once it is recorded; the old file goes after. */
  async setLogo(id: number, file: StoredUpload | null): Promise<Charity> {
    try {
      const row = await this.row(id);
      if (!file) throw validationError({ charity_logo: ['The charity logo field is required.'] });
      const { updated, replaced } = await this.db.transaction(async (tx) => {
        // the logo being replaced is read under the row's lock: of two uploads at once, each
        // replaces the one before it, and no file is left that no row names
        const [current] = await tx
          .select({ logoFile: charities.logoFile })
          .from(charities)
          .where(eq(charities.id, id))
          .for('update');
        if (!current) throw notFound('Charity not found.');
        const [u] = await tx
          .update(charities)
          .set({ logoFile: file.name, updatedAt: new Date() })
          .where(eq(charities.id, id))
          .returning();
        await audit(tx, {
          action: 'charity.logo_uploaded',
          subject: { type: 'charity', id },
          summary: `uploaded a logo for the charity ${row.name}`,
          details: { bytes: file.bytes, type: file.mime },
        });
        return { updated: u, replaced: current.logoFile };
      });
      await this.removeFile(replaced);
      return toCharity(updated!);
    } catch (error) {
      if (file) await this.removeFile(file.name);
      throw error;
    }
  }

  async removeLogo(id: number): Promise<Charity> {
    const row = await this.row(id);
    const { updated, removed } = await this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ logoFile: charities.logoFile })
        .from(charities)
        .where(eq(charities.id, id))
        .for('update');
      const [u] = await tx
        .update(charities)
        .set({ logoFile: null, updatedAt: new Date() })
        .where(eq(charities.id, id))
        .returning();
      await audit(tx, {
        action: 'charity.logo_removed',
        subject: { type: 'charity', id },
        summary: `removed the logo of the charity ${row.name}`,
      });
      return { updated: u, removed: current?.logoFile ?? null };
    });
    await this.removeFile(removed);
    return toCharity(updated!);
  }

  async logoFile(id: number): Promise<{ stream: Readable; mime: string }> {
    const row = await this.row(id);
    const stream = row.logoFile ? await this.files.open('logos', row.logoFile) : null;
    if (!stream) throw notFound('This charity has no logo.');
    return { stream, mime: row.logoFile!.endsWith('.png') ? 'image/png' : 'image/jpeg' };
  }

  /** Removing a file that is already gone is no error; a store that fails is told in the log by the sweep later. */
  private async removeFile(name: string | null) {
    if (!name) return;
    await this.files.remove('logos', name).catch(() => undefined);
  }
}
