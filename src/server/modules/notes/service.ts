import { desc, eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { Note } from '../../../contract/notes.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { bookingNotes, bookings, users } from '../../../db/schema/index.ts';
import { audit } from '../../audit/audit.ts';
import { notFound, validationError } from '../../errors.ts';
import { isBlank, sanitiseNote } from './sanitise.ts';

/** who writes a note, from where; `forCharity`: written through the charity portal, so the charity sees it */
type Author = { userId: number; ip: string; forCharity?: boolean };

export class NoteService {
  constructor(private readonly db: Db) {}

  async list(bookingId: number): Promise<Note[]> {
    const [booking] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
    const rows = await this.select()
      .where(eq(bookingNotes.bookingId, bookingId))
      .orderBy(desc(bookingNotes.createdAt), desc(bookingNotes.id));
    return rows.map(toNote);
  }

  async create(v: { booking_id: number; note_text: string }, by: Author): Promise<Note> {
    const text = clean(v.note_text);
    const id = await this.db.transaction(async (tx) => {
      const booking = await bookingOf(tx, v.booking_id);
      if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
      const [row] = await tx
        .insert(bookingNotes)
        .values({
          bookingId: v.booking_id,
          noteText: text,
          userId: by.userId,
          ipAddress: by.ip,
          visibleToCharity: by.forCharity ?? false,
        })
        .returning({ id: bookingNotes.id });
      await audit(tx, {
        action: 'note.created',
        subject: { type: 'note', id: row!.id },
        bookingId: booking.id,
        tripId: booking.tripId,
        summary: `added a note to the booking ${booking.ref}`,
        details: { excerpt: excerpt(text) },
      });
      return row!.id;
    });
    return this.get(id);
  }

  /** The author and address stay those of the note's writer; the edit time records the change. */
  async update(id: number, v: { note_text: string }): Promise<Note> {
    const text = clean(v.note_text);
    await this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ bookingId: bookingNotes.bookingId, noteText: bookingNotes.noteText })
        .from(bookingNotes)
        .where(eq(bookingNotes.id, id))
        .for('update');
      if (!before) throw notFound('Note not found.');
      await tx.update(bookingNotes).set({ noteText: text, updatedAt: new Date() }).where(eq(bookingNotes.id, id));
      const booking = await bookingOf(tx, before.bookingId);
      await audit(tx, {
        action: 'note.updated',
        subject: { type: 'note', id },
        bookingId: before.bookingId,
        tripId: booking?.tripId ?? null,
        summary:
          before.noteText === text
            ? `saved a note on the booking ${booking?.ref ?? before.bookingId} without changes`
            : `edited a note on the booking ${booking?.ref ?? before.bookingId}`,
        details: { before: excerpt(before.noteText), after: excerpt(text) },
      });
    });
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(bookingNotes)
        .where(eq(bookingNotes.id, id))
        .returning({ bookingId: bookingNotes.bookingId, noteText: bookingNotes.noteText });
      if (!row) throw notFound('Note not found.');
      const booking = await bookingOf(tx, row.bookingId);
      await audit(tx, {
        action: 'note.deleted',
        subject: { type: 'note', id },
        bookingId: row.bookingId,
        tripId: booking?.tripId ?? null,
        summary: `deleted a note from the booking ${booking?.ref ?? row.bookingId}`,
        details: { excerpt: excerpt(row.noteText) },
      });
    });
  }

  private select() {
    return this.db
      .select({ n: bookingNotes, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(bookingNotes)
      .leftJoin(users, eq(users.id, bookingNotes.userId));
  }

  private async get(id: number): Promise<Note> {
    const [row] = await this.select().where(eq(bookingNotes.id, id));
    if (!row) throw notFound('Note not found.');
    return toNote(row);
  }
}

async function bookingOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({ id: bookings.id, ref: bookings.ref, tripId: bookings.tripId })
    .from(bookings)
    .where(eq(bookings.id, id));
  return row;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** The start of a note as plain text, for the history: a note is staff's working text, not personal data. */
export function excerpt(html: string, length = 120): string {
  // block ends and line breaks become spaces, so paragraphs do not run together
  const spaced = html.replace(/<(?:br|hr)\b[^>]*>|<\/(?:p|li|h2|h3|blockquote|pre)>/gi, ' ');
  const text = sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

function clean(html: string): string {
  const text = sanitiseNote(html);
  if (isBlank(text)) throw validationError({ note_text: ['The note field is required.'] });
  return text;
}

function toNote(row: {
  n: typeof bookingNotes.$inferSelect;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}): Note {
  return {
    id: row.n.id,
    booking_id: row.n.bookingId,
    note_text: row.n.noteText,
    user: row.firstName === null ? null : { name: `${row.firstName} ${row.lastName}`, email: row.email! },
    created_at: row.n.createdAt.toISOString(),
    updated_at: row.n.updatedAt.toISOString(),
    ip_address: row.n.ipAddress,
  };
}
