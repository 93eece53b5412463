import { z } from 'zod';
import { isCalendarDay, parseDdMmYyyy } from './dates.ts';
import { createTransactionSchema } from './invoices.ts';
import { poundsToPence } from './money.ts';

/** Who pays a school group's trip (issue 37). */
export const GROUP_PAYERS = ['parents', 'school', 'split'] as const;
export type GroupPayer = (typeof GROUP_PAYERS)[number];
export const GROUP_PAYER_LABELS: Record<GroupPayer, string> = {
  parents: 'Parents pay',
  school: 'The school pays',
  split: 'Split: the school pays a fixed amount per pupil',
};
/**
 * What the school pays of one pupil's trip cost, in pence: all of it when the school pays, its
 * fixed share (never more than the cost) when split, nothing when the parents pay. The parents'
 * schedule is the rest, so the two always add up to the cost.
 */
export function schoolPaysPence(
  costPence: number,
  group: { payer: string; schoolSharePence: number | null } | null | undefined,
): number {
  if (!group || group.payer === 'parents') return 0;
  if (group.payer === 'school') return costPence;
  return Math.min(costPence, Math.max(0, group.schoolSharePence ?? 0));
}

export const GROUPS_ONLY_SCHOOL = 'Groups are for school trips: make this a school trip first.';

const required = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` });

/** POST /api/trips/{id}/groups and PUT /api/groups/{id}: a school's group and its leader. */
export const groupInputSchema = z
  .object({
    school: required('school'),
    leader_name: required('group leader’s name'),
    leader_email: required('group leader’s email').pipe(
      z.email({ error: 'The group leader’s email must be a valid email address.' }),
    ),
    leader_phone: z
      .string({ error: 'The group leader’s telephone must be text.' })
      .trim()
      .max(30, { error: 'The group leader’s telephone must not be longer than 30 characters.' })
      .refine((v) => v === '' || /^[+\d\s()-]+$/.test(v), {
        error: 'The group leader’s telephone may only contain digits, spaces, +, ( ) and -.',
      })
      .nullish()
      .transform((v) => (v ? v : null)),
    places: z.coerce
      .number({ error: 'The places must be a whole number from 1 to 1,000.' })
      .int({ error: 'The places must be a whole number from 1 to 1,000.' })
      .min(1, { error: 'The places must be a whole number from 1 to 1,000.' })
      .max(1000, { error: 'The places must be a whole number from 1 to 1,000.' }),
    payer: z.enum(GROUP_PAYERS, { error: 'Choose who pays: the parents, the school, or split.' }),
    /** pounds per pupil the school pays when split; ignored otherwise */
    school_share: poundsToPence('school’s share per pupil').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.payer === 'split' && (v.school_share === undefined || v.school_share <= 0))
      ctx.addIssue({
        code: 'custom',
        path: ['school_share'],
        message: 'Give what the school pays for each pupil when the cost is split.',
      });
  })
  .transform((v) => ({ ...v, school_share: v.payer === 'split' ? (v.school_share ?? null) : null }));
export type GroupInput = z.input<typeof groupInputSchema>;
export type GroupValues = z.output<typeof groupInputSchema>;

export const groupSchema = z.object({
  id: z.number().int(),
  trip_id: z.number().int(),
  school: z.string(),
  leader: z.object({
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    /** the leader's End User account (their page is theirs to sign in to) */
    user_id: z.number().int().nullable(),
  }),
  places: z.number().int(),
  payer: z.enum(GROUP_PAYERS),
  /** pounds per pupil, when split */
  school_share: z.number().nullable(),
  /** the group's live bookings (provisional and confirmed) */
  pupils: z.number().int(),
  /** pounds its pupils have paid (payments less refunds), and pounds past their due dates */
  paid: z.number(),
  overdue: z.number(),
  /** its pupils ready to travel, and those still without a parent's consent */
  ready: z.number().int(),
  consent_missing: z.number().int(),
  created_at: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

/** The reference of a school group's invoice: its group's id, as GRP-0012. */
export const groupInvoiceRef = (groupId: number) => `GRP-${String(groupId).padStart(4, '0')}`;

/**
 * A school group's invoice (issue 37): the school's share of each pupil's trip, one line per
 * pupil, each line an invoice on the pupil's booking; payments against it are split to them.
 * A pupil who left with some of their share paid keeps that line at what was paid.
 */
export const groupInvoiceSchema = z.object({
  group_id: z.number().int(),
  ref: z.string(),
  school: z.string(),
  trip: z.object({ id: z.number().int(), name: z.string(), departure: z.string() }),
  /** the first due date of its lines: the balance date (8 weeks before departure), or the day a late pupil joined */
  due_date: z.string().nullable(),
  /** pounds */
  total: z.number(),
  paid: z.number(),
  /** what the school owes on its lines */
  outstanding: z.number(),
  /** what it paid beyond its lines (a pupil who left): for the office to refund, or set against */
  credit: z.number(),
  lines: z.array(
    z.object({
      booking_id: z.number().int(),
      booking_ref: z.string(),
      pupil: z.string(),
      invoice_id: z.number().int(),
      invoice_ref: z.string(),
      amount: z.number(),
      paid: z.number(),
      outstanding: z.number(),
      /** the pupil has left the group (their booking is cancelled) */
      left: z.boolean(),
    }),
  ),
  pdf_url: z.string(),
  /** the school's pay link (card payments set up, and something outstanding); null otherwise */
  pay_url: z.string().nullable(),
});
export type GroupInvoice = z.infer<typeof groupInvoiceSchema>;

/** POST /api/groups/{id}/payments: money the school paid on its group invoice, split to its pupils' lines. */
export const groupPaymentInputSchema = createTransactionSchema.pick({
  amount: true,
  processor: true,
  date: true,
  notes: true,
});
export type GroupPaymentInput = z.input<typeof groupPaymentInputSchema>;
export type GroupPaymentValues = z.output<typeof groupPaymentInputSchema>;

export const groupPaymentSchema = z.object({
  message: z.string(),
  /** each pupil's line the payment went to, in pounds */
  split: z.array(z.object({ booking_ref: z.string(), invoice_ref: z.string(), amount: z.number() })),
  invoice: groupInvoiceSchema,
});
export type GroupPayment = z.infer<typeof groupPaymentSchema>;

/** How a pupil stands on their parent's consent, for their group leader. */
export const PUPIL_CONSENT = ['given', 'missing', 'withdrawn', 'not_needed'] as const;

/**
 * GET /api/my/groups/{id}: a group leader's view of their group (issue 37). Each pupil's money,
 * consent, form and readiness — never the medical detail, only whether it is given.
 */
export const leaderGroupSchema = z.object({
  id: z.number().int(),
  school: z.string(),
  trip: z.object({ id: z.number().int(), name: z.string(), departure: z.string(), return: z.string() }),
  places: z.number().int(),
  payer: z.enum(GROUP_PAYERS),
  /** the group's places are still open to new pupils (the trip takes bookings, and has not left) */
  adding_open: z.boolean(),
  pupils: z.array(
    z.object({
      booking_id: z.number().int(),
      ref: z.string(),
      name: z.string(),
      status: z.enum(['provisional', 'confirmed']),
      /** pounds paid to date (payments less refunds) */
      paid: z.number(),
      /** pounds past their due date */
      overdue: z.number(),
      consent: z.enum(PUPIL_CONSENT),
      form_complete: z.boolean(),
      /** the medical part of the form is answered (its detail stays with the office) */
      medical_given: z.boolean(),
      ready: z.boolean(),
      /** their parent has been emailed the invitation to their page */
      parent_invited: z.boolean(),
    }),
  ),
  summary: z.object({
    pupils: z.number().int(),
    ready: z.number().int(),
    consent_missing: z.number().int(),
    overdue: z.number().int(),
  }),
  /** the school's invoice, when the school pays all or a share; null when the parents pay */
  invoice: groupInvoiceSchema.nullable(),
});
export type LeaderGroup = z.infer<typeof leaderGroupSchema>;

/** GET /api/my/groups: the groups a signed-in group leader leads. */
export const leaderGroupsSchema = z.array(
  z.object({
    id: z.number().int(),
    school: z.string(),
    trip: z.object({ id: z.number().int(), name: z.string(), departure: z.string() }),
    places: z.number().int(),
    pupils: z.number().int(),
  }),
);
export type LeaderGroups = z.infer<typeof leaderGroupsSchema>;

/** A day as a school's list may write it: 2012-05-03, 03/05/2012 or 3/5/2012 (UK order). */
function pupilDay(value: string): string | null {
  const v = value.trim();
  if (isCalendarDay(v)) return v;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  return m ? parseDdMmYyyy(`${m[1]!.padStart(2, '0')}/${m[2]!.padStart(2, '0')}/${m[3]}`) : null;
}

export const DATE_OF_BIRTH_FORMAT = 'The date of birth must be a date, as 31/12/2012 or 2012-12-31.';

/**
 * POST /api/my/groups/{id}/pupils: one pupil a group leader adds, with the parent who is invited
 * to their page; each row of an imported list is read with the same schema.
 */
export const pupilInputSchema = z.object({
  first_name: required('pupil’s first name', 100),
  last_name: required('pupil’s last name', 100),
  date_of_birth: z
    .string({ error: 'The date of birth field is required.' })
    .trim()
    .min(1, { error: 'The date of birth field is required.', abort: true })
    .transform((v, ctx) => {
      const day = pupilDay(v);
      if (day === null) {
        ctx.addIssue({ code: 'custom', message: DATE_OF_BIRTH_FORMAT });
        return z.NEVER;
      }
      return day;
    }),
  parent_name: required('parent’s name', 200),
  parent_email: required('parent’s email').pipe(
    z.email({ error: 'The parent’s email must be a valid email address.' }),
  ),
});
export type PupilInput = z.input<typeof pupilInputSchema>;
export type PupilValues = z.output<typeof pupilInputSchema>;

/**
 * The columns of an imported list (.xlsx or .csv), by their heading in its first row: matched
 * whatever their case, spaces or apostrophes, in any order; other columns are left alone.
 */
export const PUPIL_COLUMNS: ReadonlyArray<{ field: keyof PupilInput; heading: string }> = [
  { field: 'first_name', heading: 'First name' },
  { field: 'last_name', heading: 'Last name' },
  { field: 'date_of_birth', heading: 'Date of birth' },
  { field: 'parent_name', heading: 'Parent’s name' },
  { field: 'parent_email', heading: 'Parent’s email' },
];
/** At most this many rows in one list (a group has at most 1,000 places). */
export const PUPIL_IMPORT_MAX_ROWS = 1000;
export const PUPIL_IMPORT_MAX_MB = 2;

/** What adding pupils did: the bookings made, and the parents' invitations on their way. */
export const pupilsAddedSchema = z.object({
  message: z.string(),
  added: z.array(z.object({ booking_id: z.number().int(), ref: z.string(), name: z.string() })),
});
export type PupilsAdded = z.infer<typeof pupilsAddedSchema>;

/** POST /api/my/groups/{id}/reminders: what the leader's one click sent, and what it left alone. */
export const groupRemindersSchema = z.object({
  message: z.string(),
  /** payment reminders for money overdue */
  reminders: z.number().int(),
  /** chasers for a passport, form or consent not given */
  chasers: z.number().int(),
  /** invitations to parents not yet sent */
  invitations: z.number().int(),
  /** pupils whose parents asked for no reminders or chasers */
  opted_out: z.number().int(),
  failed: z.number().int(),
});
export type GroupReminders = z.infer<typeof groupRemindersSchema>;
