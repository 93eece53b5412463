import { desc, eq } from 'drizzle-orm';
import type { Note } from '../../../contract/notes.ts';
import type { Db } from '../../../db/client.ts';
import { bookingNotes, bookings, users } from '../../../db/schema/index.ts';
import { notFound, validationError } from '../../errors.ts';
import { isBlank, sanitiseNote } from './sanitise.ts';

type Author = { userId: number; ip: string };

export class NoteService {
  constructor(private readonly db: Db) {}

  async list(bookingId: number): Promise<Note[]> {
    const [booking] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId));
    if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
    const rows = await this.select().where(eq(bookingNotes.bookingId, bookingId)).orderBy(desc(bookingNotes.createdAt), desc(bookingNotes.id));
    return rows.map(toNote);
  }

  async create(v: { booking_id: number; note_text: string }, by: Author): Promise<Note> {
    const text = clean(v.note_text);
    const [booking] = await this.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, v.booking_id));
    if (!booking) throw validationError({ booking_id: ['The selected booking is invalid.'] });
    const [row] = await this.db.insert(bookingNotes).values({ bookingId: v.booking_id, noteText: text, userId: by.userId, ipAddress: by.ip }).returning({ id: bookingNotes.id });
    return this.get(row!.id);
  }

  /** The author and address stay those of the note's writer; the edit time records the change. */
  async update(id: number, v: { note_text: string }): Promise<Note> {
    const text = clean(v.note_text);
    const [row] = await this.db.update(bookingNotes).set({ noteText: text, updatedAt: new Date() }).where(eq(bookingNotes.id, id)).returning({ id: bookingNotes.id });
    if (!row) throw notFound('Note not found.');
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    const [row] = await this.db.delete(bookingNotes).where(eq(bookingNotes.id, id)).returning({ id: bookingNotes.id });
    if (!row) throw notFound('Note not found.');
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

function clean(html: string): string {
  const text = sanitiseNote(html);
  if (isBlank(text)) throw validationError({ note_text: ['The note field is required.'] });
  return text;
}

function toNote(row: { n: typeof bookingNotes.$inferSelect; firstName: string | null; lastName: string | null; email: string | null }): Note {
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
