import { z } from 'zod';

export const countrySchema = z.object({ id: z.number().int(), name: z.string() });
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);
