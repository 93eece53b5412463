import { z } from 'zod';

/** `{"message": "..."}` — every 4xx/5xx reply. */
export const messageSchema = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof messageSchema>;

/**
 * 422: the message and, when fields are at fault, a map of field to list of messages
 * (Laravel's shape). A refusal by a rule that no one field breaks has the message only.
 */
export const validationErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ValidationErrorReply = z.infer<typeof validationErrorSchema>;

/** The largest id a record can have (PostgreSQL integer); a bigger one names nothing. */
export const MAX_ID = 2_147_483_647;

/**
 * The id of a record, sent as a number or as digits (a path, a query, a form): a whole number
 * from 1 to MAX_ID. true, 1.5 or "1e3" are not ids.
 */
export const recordId = (label: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: `The ${label} field is required.` })
    .pipe(
      z
        .number()
        .int({ error: `The selected ${label} is invalid.` })
        .min(1, { error: `The selected ${label} is invalid.` })
        .max(MAX_ID, { error: `The selected ${label} is invalid.` }),
    );

export const idParam = z.object({ id: recordId('id') });

/** A paged list reply. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    per_page: z.number().int(),
    current_page: z.number().int(),
    last_page: z.number().int(),
  });
export type Paged<T> = {
  data: T[];
  total: number;
  from: number | null;
  to: number | null;
  per_page: number;
  current_page: number;
  last_page: number;
};
