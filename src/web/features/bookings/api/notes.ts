import { useQuery } from '@tanstack/react-query';
import type { CreateNoteInput, Note } from '../../../../contract/notes.ts';
import { api } from '../../../lib/api.ts';
import { bookingKeys } from './bookings.ts';

export const noteKeys = { forBooking: (bookingId: number) => ['bookingNotes', bookingId] as const };

export const useNotes = (bookingId: number) =>
  useQuery({
    queryKey: noteKeys.forBooking(bookingId),
    queryFn: () => api<Note[]>('/api/bookingNotes', { query: { booking_id: bookingId } }),
  });
export const createNote = (body: CreateNoteInput) => api<Note>('/api/bookingNotes', { method: 'POST', body });
export const updateNote = (id: number, noteText: string) =>
  api<Note>(`/api/bookingNotes/${id}`, { method: 'PATCH', body: { note_text: noteText } });
export const deleteNote = (id: number) => api<void>(`/api/bookingNotes/${id}`, { method: 'DELETE' });

/** What a note's change makes stale: the notes and the booking's History panel. */
export const noteChangeKeys = (bookingId: number) => [noteKeys.forBooking(bookingId), bookingKeys.history(bookingId)];
