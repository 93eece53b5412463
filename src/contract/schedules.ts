import { z } from 'zod';
import { intFor, recordId } from './common.ts';
import { isoDate } from './invoices.ts';
import { poundsToPence } from './money.ts';
import {
  AMOUNT_KINDS,
  DUE_KINDS,
  INSTALMENT_LABEL_MAX,
  MAX_INSTALMENTS,
  SCHEDULE_STATES,
} from './schedule-constants.ts';

// ---- payment plans and schedules ----

const labelSchema = z
  .string({ error: 'The label field is required.' })
  .trim()
  .min(1, { error: 'The label field is required.', abort: true })
  .max(INSTALMENT_LABEL_MAX, { error: `The label must not be longer than ${INSTALMENT_LABEL_MAX} characters.` });
const percentSchema = z.coerce
  .number({ error: 'The percentage must be a number.' })
  .min(0.01, { error: 'The percentage must be between 0.01 and 100.' })
  .max(100, { error: 'The percentage must be between 0.01 and 100.' })
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, {
    error: 'The percentage may have at most two decimals.',
  });
const DAYS_ERROR = 'The number of days must be a whole number from 0 to 3650.';
const daysSchema = intFor('int2', DAYS_ERROR).min(0, { error: DAYS_ERROR }).max(3650, { error: DAYS_ERROR });

/**
 * One instalment of a plan as staff type it: the amount in pounds or percent, the due rule.
 * Every field is checked, whichever others are wrong, so the form shows every error at once.
 */
export const instalmentInputSchema = z
  .object({
    label: z.unknown().optional(),
    amount_kind: z.unknown().optional(),
    amount: z.unknown().optional(),
    percent: z.unknown().optional(),
    due_kind: z.unknown().optional(),
    due_days: z.unknown().optional(),
    due_date: z.unknown().optional(),
  })
  .transform((v, ctx) => {
    const field = <T>(schema: z.ZodType<T>, value: unknown, path: string): T | null => {
      const r = schema.safeParse(value);
      if (r.success) return r.data;
      ctx.addIssue({ code: 'custom', message: r.error.issues[0]!.message, path: [path] });
      return null;
    };
    const label = field(labelSchema, v.label, 'label');
    const amountKind = field(
      z.enum(AMOUNT_KINDS, { error: 'The amount must be a fixed amount, a percentage, the deposit or the rest.' }),
      v.amount_kind,
      'amount_kind',
    );
    const dueKind = field(
      z.enum(DUE_KINDS, { error: 'The due date must be days after booking, days before departure or a fixed date.' }),
      v.due_kind,
      'due_kind',
    );
    const amountPence =
      amountKind === 'fixed'
        ? field(
            poundsToPence('amount').refine((p) => p > 0, { error: 'The amount must be more than £0.00.' }),
            v.amount,
            'amount',
          )
        : null;
    const percent = amountKind === 'percent' ? field(percentSchema, v.percent, 'percent') : null;
    const dueDate = dueKind === 'fixed_date' ? field(isoDate('due date'), v.due_date, 'due_date') : null;
    const dueDays =
      dueKind === 'after_booking' || dueKind === 'before_departure' ? field(daysSchema, v.due_days, 'due_days') : null;
    if (label === null || amountKind === null || dueKind === null) return z.NEVER;
    return {
      label,
      amountKind,
      amountPence,
      percentHundredths: percent === null ? null : Math.round(percent * 100),
      dueKind,
      dueDays,
      dueDate,
    };
  });

export const paymentPlanInputSchema = z.object({
  instalments: z
    .array(instalmentInputSchema, { error: 'The instalments field is required.' })
    .min(1, { error: 'A plan needs at least one instalment.' })
    .max(MAX_INSTALMENTS, { error: `A plan can have at most ${MAX_INSTALMENTS} instalments.` }),
});
export type PaymentPlanInput = z.input<typeof paymentPlanInputSchema>;

export const instalmentSchema = z.object({
  position: z.number().int(),
  label: z.string(),
  amount_kind: z.enum(AMOUNT_KINDS),
  /** fixed: pounds */
  amount: z.number().nullable(),
  percent: z.number().nullable(),
  due_kind: z.enum(DUE_KINDS),
  due_days: z.number().int().nullable(),
  due_date: z.string().nullable(),
});
export type PlanInstalment = z.infer<typeof instalmentSchema>;

export const scheduledInstalmentSchema = z.object({
  position: z.number().int(),
  label: z.string(),
  due_date: z.string(),
  amount: z.number(),
});

export const paymentPlanSchema = z.object({
  trip_id: z.number().int(),
  /** the trip has not been given a plan of its own: the default applies */
  is_default: z.boolean(),
  instalments: z.array(instalmentSchema),
  /** the schedule a booking made today would get */
  preview: z.array(scheduledInstalmentSchema),
  cost: z.number(),
  deposit: z.number(),
  /** the trip's automatic reminders are switched off (PUT /api/trips/{id}/reminders), and why */
  reminders_off: z.boolean(),
  reminders_off_reason: z.string().nullable(),
});
export type PaymentPlan = z.infer<typeof paymentPlanSchema>;

export const scheduleRowSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  label: z.string(),
  due_date: z.string(),
  amount: z.number(),
  invoice_type: z.enum(['deposit', 'balance']),
  invoice_id: z.number().int().nullable(),
  invoice_ref: z.string().nullable(),
  /** what is still owed on the row's invoice (or the row's amount before it is invoiced); 0 when waived */
  outstanding: z.number(),
  state: z.enum(SCHEDULE_STATES),
  waived_reason: z.string().nullable(),
});
export type ScheduleRow = z.infer<typeof scheduleRowSchema>;

export const bookingScheduleSchema = z.object({
  booking_id: z.number().int(),
  rows: z.array(scheduleRowSchema),
  /** the schedule can be made again from the trip's plan: nothing on it is invoiced yet */
  can_rebuild: z.boolean(),
  reminders_off: z.boolean(),
  reminders_off_reason: z.string().nullable(),
  trip_reminders_off: z.boolean(),
});
export type BookingSchedule = z.infer<typeof bookingScheduleSchema>;

export const reasonText = z
  .string({ error: 'The reason must be text.' })
  .trim()
  .max(500, { error: 'The reason must not be longer than 500 characters.' });

export const scheduleRowPatchSchema = z
  .object({
    due_date: isoDate('due date').optional(),
    amount: poundsToPence('amount').optional(),
    waived: z.boolean({ error: 'Waived must be true or false.' }).optional(),
    reason: reasonText.optional(),
  })
  .refine((v) => v.due_date !== undefined || v.amount !== undefined || v.waived !== undefined, {
    error: 'Say what to change: the due date, the amount or whether it is waived.',
  })
  .refine((v) => !v.waived || (v.reason ?? '').length > 0, {
    error: 'Say why the instalment is waived.',
    path: ['reason'],
  });
export type ScheduleRowPatch = z.input<typeof scheduleRowPatchSchema>;

export const scheduleRowParam = z.object({ id: recordId('instalment') });

export const remindersSettingSchema = z
  .object({
    send: z.boolean({ error: 'Say whether to send automatic reminders (true or false).' }),
    reason: reasonText.optional(),
  })
  .refine((v) => v.send || (v.reason ?? '').length > 0, {
    error: 'Say why automatic reminders are turned off.',
    path: ['reason'],
  });
export type RemindersSetting = z.input<typeof remindersSettingSchema>;
