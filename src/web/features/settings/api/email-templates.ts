import { useQuery } from '@tanstack/react-query';
import type { BookingPage } from '../../../../contract/bookings.ts';
import type { EmailTemplate, EmailTemplateInput, RenderedEmail } from '../../../../contract/email-templates.ts';
import { api, ApiError } from '../../../lib/api.ts';

export const templateKeys = { all: ['email-templates'] as const };

export const listTemplates = () => api<EmailTemplate[]>('/api/email-templates');
export const saveTemplate = ({ key, ...body }: EmailTemplateInput & { key: string }) =>
  api<EmailTemplate>(`/api/email-templates/${encodeURIComponent(key)}`, { method: 'PUT', body });

/** Back to Tripdesk's own wording. */
export const resetTemplate = (key: string) =>
  api<EmailTemplate>(`/api/email-templates/${encodeURIComponent(key)}`, { method: 'DELETE' });

export const useTemplates = () => useQuery({ queryKey: templateKeys.all, queryFn: listTemplates });

/** The booking a preview is for, as the person typed it, and what Tripdesk found. */
export type PreviewBooking = { id: number; ref: string | null; name: string | null; trip: string | null };

const refused = (message: string) => new ApiError(422, message, { booking_id: [message] }, { message });

/** A booking's id, or its reference (TD-…; a unique part of one will do), to the booking. */
export async function findBooking(typed: string): Promise<PreviewBooking> {
  const text = typed.trim();
  if (!text) throw refused('Type a booking’s id or reference to preview the email for it.');
  if (/^\d+$/.test(text)) return { id: Number(text), ref: null, name: null, trip: null };
  const found = await api<BookingPage>('/api/bookings', { query: { booking_ref: text, timing: 'all', per_page: 5 } });
  const exact = found.data.find((b) => b.ref.toLowerCase() === text.toLowerCase());
  const booking = exact ?? (found.data.length === 1 ? found.data[0] : undefined);
  if (!booking) {
    throw refused(
      found.data.length
        ? `${found.data.length > 4 ? 'Several' : found.data.length} bookings have a reference with “${text}” in it: type the whole reference.`
        : `No booking has the reference “${text}”.`,
    );
  }
  return {
    id: booking.id,
    ref: booking.ref,
    name: `${booking.first_name} ${booking.last_name}`,
    trip: booking.trip.name,
  };
}

/** The email as the booking's traveller would get it, from the draft wording. */
export async function previewTemplate({
  key,
  booking,
  subject,
  body,
}: {
  key: string;
  booking: string;
  subject: string;
  body: string;
}) {
  const found = await findBooking(booking);
  const mail = await api<RenderedEmail>(`/api/email-templates/${encodeURIComponent(key)}/preview`, {
    method: 'POST',
    body: { booking_id: found.id, subject, body },
  }).catch((error: unknown) => {
    // the server names the field for a template it cannot read; a 422 without one is about the booking
    throw error instanceof ApiError && error.status === 422 && !error.errors ? refused(error.message) : error;
  });
  return { booking: found, mail, subject, body };
}
/** The email from the draft wording, for the booking typed, sent to the signed-in member of staff (never the traveller). */
export async function testTemplate({
  key,
  booking,
  subject,
  body,
}: {
  key: string;
  booking: string;
  subject: string;
  body: string;
}) {
  const found = await findBooking(booking);
  return api<{ message: string }>(`/api/email-templates/${encodeURIComponent(key)}/test`, {
    method: 'POST',
    body: { booking_id: found.id, subject, body },
  }).catch((error: unknown) => {
    throw error instanceof ApiError && error.status === 422 && !error.errors ? refused(error.message) : error;
  });
}

export type Preview = Awaited<ReturnType<typeof previewTemplate>>;
