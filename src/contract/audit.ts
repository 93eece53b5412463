import { z } from 'zod';
import { int4, pageParam, paged, recordId } from './common.ts';
import { AUDIT_SOURCES, AUDIT_ACTOR_TYPES } from './constants.ts';
export { AUDIT_PER_PAGE, AUDIT_SOURCES, AUDIT_ACTOR_TYPES } from './constants.ts';

/** One event of the history, as the API gives it. */
export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    id: z.number().int().nullable(),
    name: z.string(),
    token_id: z.string().nullable(),
    client_id: z.string().nullable(),
    /** the team the member of staff was in when they acted */
    team: z.string().nullable(),
  }),
  source: z.enum(AUDIT_SOURCES),
  ip_address: z.string().nullable(),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string().nullable(),
  booking_id: z.number().int().nullable(),
  trip_id: z.number().int().nullable(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).nullable(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEventReply = z.infer<typeof auditEventSchema>;
/** A page of events; above 10,000 matches the total is the database's estimate (as the booking list's). */
export const auditPageSchema = paged(auditEventSchema).extend({ total_is_estimate: z.boolean() });
export type AuditPage = z.infer<typeof auditPageSchema>;

const isoDay = (label: string) =>
  z
    .string({ error: `The ${label} must be a date (yyyy-mm-dd).` })
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || !new Date(v + 'T00:00:00Z').toISOString().startsWith(v)) {
        ctx.addIssue({ code: 'custom', message: `The ${label} must be a date (yyyy-mm-dd).` });
        return z.NEVER;
      }
      return v;
    });

const optionalText = (label: string, max = 100) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` })
    .optional()
    .transform((v) => (v ? v : undefined));

/** A page of a booking's or a trip's history. */
export const historyQuery = z.object({ page: pageParam() });

/** /api/audit: every event, filtered. `action` ending in "." matches every action of that kind ("booking."). */
export const auditQuery = z
  .object({
    page: pageParam(),
    actor_id: int4('The actor must be a user id.').positive({ error: 'The actor must be a user id.' }).optional(),
    /** part of a user's name or email: their events, whether made signed in or with their tokens */
    actor: optionalText('actor'),
    actor_type: z.enum(AUDIT_ACTOR_TYPES, { error: 'The actor type is invalid.' }).optional(),
    action: optionalText('action'),
    subject_type: optionalText('subject type'),
    subject_id: optionalText('subject id'),
    booking_ref: optionalText('booking reference', 20),
    source: z
      .enum(AUDIT_SOURCES, { error: 'The source must be web, api, system, webhook, portal or online.' })
      .optional(),
    from: isoDay('from date'),
    to: isoDay('to date'),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The to date must not be before the from date.' });
  });
export type AuditQuery = z.output<typeof auditQuery>;

/** An email Tripdesk sent (or tried to) about a booking, from the history. */
export const sentEmailSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  sent_by: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  attachments: z.array(z.string()),
  outcome: z.enum(['sent', 'refused', 'written_to_eml']),
  message_id: z.string().nullable(),
  /** what it was about, so that it can be sent again */
  about: z.object({ type: z.string(), id: z.string().nullable() }),
});
export type SentEmail = z.infer<typeof sentEmailSchema>;
export const emailParams = z.object({ id: recordId('booking'), emailId: recordId('email') });
