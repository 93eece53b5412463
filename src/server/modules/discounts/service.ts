import { and, asc, eq, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import type { Discount, DiscountInvoiceType, DiscountValues } from '../../../contract/discounts.ts';
import { penceToPounds } from '../../../contract/money.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { discounts, trips } from '../../../db/schema/index.ts';
import { audit, describeChanges, diffObjects } from '../../audit/audit.ts';
import { notFound, validationError } from '../../errors.ts';
import { escapeLike, pgError } from '../../sql.ts';

/** Nothing changed: "saved the trip … without changes" (describeChanges words this case "saved of …"). */

type Row = typeof discounts.$inferSelect & { tripName: string | null };

// validity dates are calendar days kept as midnight; they cross the API as "yyyy-mm-ddT00:00:00"
const toIso = (d: Date | null) => (d ? `${d.toISOString().slice(0, 10)}T00:00:00` : null);
const fromDay = (day: string | null) => (day ? new Date(`${day}T00:00:00Z`) : null);

function toDiscount(row: Row): Discount {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    amount: penceToPounds(row.amountPence),
    usage_limit: row.usageLimit,
    usage_count: row.usageCount,
    valid_from: toIso(row.validFrom),
    valid_until: toIso(row.validUntil),
    trip_id: row.tripId,
    trip: row.tripId && row.tripName ? { id: row.tripId, name: row.tripName } : null,
    invoice_type: row.invoiceType as DiscountInvoiceType,
  };
}

/** A discount's own fields as the API gives them (amount in pounds, dates as "yyyy-mm-ddT00:00:00"). */
function discountFields(row: typeof discounts.$inferSelect): Record<string, unknown> {
  return {
    code: row.code,
    name: row.name,
    amount: penceToPounds(row.amountPence),
    usage_limit: row.usageLimit,
    valid_from: toIso(row.validFrom),
    valid_until: toIso(row.validUntil),
    trip_id: row.tripId,
    invoice_type: row.invoiceType,
  };
}

export class DiscountService {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db
      .select({
        id: discounts.id,
        code: discounts.code,
        name: discounts.name,
        amountPence: discounts.amountPence,
        usageLimit: discounts.usageLimit,
        usageCount: discounts.usageCount,
        validFrom: discounts.validFrom,
        validUntil: discounts.validUntil,
        tripId: discounts.tripId,
        invoiceType: discounts.invoiceType,
        createdAt: discounts.createdAt,
        updatedAt: discounts.updatedAt,
        tripName: trips.name,
      })
      .from(discounts)
      .leftJoin(trips, eq(trips.id, discounts.tripId));
  }

  async list(keyword?: string): Promise<Discount[]> {
    const like = keyword ? `%${escapeLike(keyword)}%` : null;
    const rows = await this.select()
      .where(like ? or(ilike(discounts.code, like), ilike(discounts.name, like)) : undefined)
      .orderBy(asc(sql`lower(${discounts.code})`));
    return rows.map(toDiscount);
  }

  async get(id: number): Promise<Discount> {
    const [row] = await this.select().where(eq(discounts.id, id));
    if (!row) throw notFound('Discount not found.');
    return toDiscount(row);
  }

  private async check(db: Db | Tx, values: DiscountValues, id?: number) {
    const errors: Record<string, string[]> = {};
    const [taken] = await db
      .select({ id: discounts.id })
      .from(discounts)
      .where(and(sql`lower(${discounts.code}) = ${values.code.toLowerCase()}`, id ? ne(discounts.id, id) : undefined));
    if (taken) errors.code = ['The code has already been taken.'];
    if (values.trip_id !== null) {
      const [trip] = await db
        .select({ id: trips.id })
        .from(trips)
        .where(and(eq(trips.id, values.trip_id), isNull(trips.deletedAt)));
      if (!trip) errors.trip_id = ['The selected trip is invalid.'];
    }
    if (Object.keys(errors).length) throw validationError(errors);
  }

  private columns(values: DiscountValues) {
    return {
      code: values.code,
      name: values.name,
      amountPence: values.amount,
      usageLimit: values.usage_limit,
      validFrom: fromDay(values.valid_from),
      validUntil: fromDay(values.valid_until),
      tripId: values.trip_id,
      invoiceType: values.invoice_type,
    };
  }

  async create(values: DiscountValues): Promise<Discount> {
    const id = await this.db.transaction(async (tx) => {
      await this.check(tx, values);
      const [row] = await tx.insert(discounts).values(this.columns(values)).returning().catch(uniqueCode);
      await audit(tx, {
        action: 'discount.created',
        subject: { type: 'discount', id: row!.id },
        tripId: row!.tripId,
        summary: `added the discount ${row!.code}`,
        details: discountFields(row!),
      });
      return row!.id;
    });
    return this.get(id);
  }

  async update(id: number, values: DiscountValues): Promise<Discount> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(discounts).where(eq(discounts.id, id)).for('update');
      if (!before) throw notFound('Discount not found.');
      await this.check(tx, values, id);
      const [after] = await tx
        .update(discounts)
        .set({ ...this.columns(values), updatedAt: new Date() })
        .where(eq(discounts.id, id))
        .returning()
        .catch(uniqueCode);
      const changes = diffObjects(discountFields(before), discountFields(after!));
      await audit(tx, {
        action: 'discount.updated',
        subject: { type: 'discount', id },
        tripId: after!.tripId ?? before.tripId,
        changes,
        summary: describeChanges(changes, `the discount ${after!.code}`),
      });
    });
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.delete(discounts).where(eq(discounts.id, id)).returning();
      if (!row) throw notFound('Discount not found.');
      await audit(tx, {
        action: 'discount.deleted',
        subject: { type: 'discount', id },
        tripId: row.tripId,
        summary: `deleted the discount ${row.code}`,
        details: discountFields(row),
      });
    });
  }
}

/** Two people saving the same new code at once: the unique index decides, the loser gets the field error. */
function uniqueCode(error: unknown): never {
  const cause = pgError(error);
  if (cause.code === '23505' && cause.constraint === 'discounts_code_lower_unique') {
    throw validationError({ code: ['The code has already been taken.'] });
  }
  throw error;
}
