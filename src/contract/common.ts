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

export const idParam = z.object({
  id: z.coerce.number({ error: 'The id must be a number.' }).int().positive({ error: 'The id must be a positive number.' }),
});

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

export const pageQuery = z.object({
  page: z.coerce.number({ error: 'The page must be a number.' }).int().min(1, { error: 'The page must be at least 1.' }).default(1),
});

/** Money crosses the API as pounds with at most two decimals; it is pence everywhere else. */
export const pounds = z
  .number({ error: 'The amount must be a number.' })
  .nonnegative({ error: 'The amount must not be negative.' })
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    error: 'The amount may have at most two decimal places.',
  });
export const toPence = (poundsValue: number): number => Math.round(poundsValue * 100);
export const toPounds = (pence: number): number => pence / 100;
