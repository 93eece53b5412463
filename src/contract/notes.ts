import { z } from 'zod';
import { recordId } from './common.ts';
import { NOTE_MAX_LENGTH } from './constants.ts';
export { NOTES_EMPTY_TEXT, NOTE_MAX_LENGTH } from './constants.ts';

// ---- booking notes (spec §2 Notes panel, §3 Booking note, §7 Booking notes) ----

const noteText = z.string({ error: 'The note field is required.' }).max(NOTE_MAX_LENGTH, {
  error: `The note must not be longer than ${NOTE_MAX_LENGTH.toLocaleString('en-GB')} characters.`,
});

export const noteQuery = z.object({
  booking_id: recordId('booking'),
});

export const createNoteSchema = z.object({
  booking_id: recordId('booking'),
  note_text: noteText,
});
export type CreateNoteInput = z.input<typeof createNoteSchema>;

export const updateNoteSchema = z.object({ note_text: noteText });

export const noteSchema = z.object({
  id: z.number().int(),
  booking_id: z.number().int(),
  /** HTML, sanitised by the server with an allow-list */
  note_text: z.string(),
  user: z.object({ name: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  ip_address: z.string().nullable(),
});
export type Note = z.infer<typeof noteSchema>;
