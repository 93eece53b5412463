import { z } from 'zod';
import { int2 } from './common.ts';
import { DEFAULT_CHARITY_TYPE } from './constants.ts';
export { CHARITY_TYPE_IDS, DEFAULT_CHARITY_TYPE } from './constants.ts';

const name = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, { error: 'The name field is required.' })
  .max(255, { error: 'The name must not be longer than 255 characters.' });

const charityTypeId = int2('The selected type of charity is invalid.')
  .min(1, { error: 'The selected type of charity is invalid.' })
  .max(8, { error: 'The selected type of charity is invalid.' });

/** Optional website: blank means none; otherwise a whole http(s) address. */
const url = z
  .string({ error: 'The url must be a valid URL.' })
  .trim()
  .max(2048, { error: 'The url must not be longer than 2048 characters.' })
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isHttpUrl(v), {
    error: 'The url must be a valid URL starting with http:// or https://.',
  });

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.') && !/\s/.test(value);
  } catch {
    return false;
  }
}

export const createCharitySchema = z.object({
  name,
  charity_type_id: charityTypeId.default(DEFAULT_CHARITY_TYPE),
});
export type CreateCharityInput = z.input<typeof createCharitySchema>;

export const updateCharitySchema = z.object({
  name,
  charity_type_id: charityTypeId,
  url: url.optional(),
});
export type UpdateCharityInput = z.input<typeof updateCharitySchema>;

export const charityListQuery = z.object({
  name: z.string().trim().max(255).optional(),
  type: z
    .union([z.literal(''), charityTypeId])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

export const charitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  charity_type_id: z.number().int(),
  charity_type: z.object({ description: z.string() }),
  url: z.string().nullable(),
  logo_url: z.string().nullable(),
});
export type Charity = z.infer<typeof charitySchema>;

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
