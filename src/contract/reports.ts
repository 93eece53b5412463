import { z } from 'zod';
import { isoDate } from './invoices.ts';
import { REPORT_NAMES } from './report-constants.ts';

export * from './report-constants.ts';

/** GET /api/reports/{name}: the report's days (from–to, or at for the aged debt) and json (its first rows) or xlsx (all of them). */
export const reportParams = z.object({ name: z.string().max(100) });
export const isReportName = (name: string): name is (typeof REPORT_NAMES)[number] =>
  (REPORT_NAMES as readonly string[]).includes(name);
export const reportQuery = z
  .object({
    from: isoDate('from date').optional(),
    to: isoDate('to date').optional(),
    at: isoDate('at date').optional(),
    format: z.enum(['json', 'xlsx'], { error: 'The format must be json or xlsx.' }).default('json'),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The to date must be on or after the from date.' });
  });
export type ReportQuery = z.input<typeof reportQuery>;

export const reportSchema = z.object({
  name: z.enum(REPORT_NAMES),
  title: z.string(),
  /** what the report covers, in words: "Payments received from 01/01/2026 to 31/12/2026" */
  covers: z.string(),
  params: z.object({ from: z.string().nullable(), to: z.string().nullable(), at: z.string().nullable() }),
  columns: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(['text', 'int', 'money', 'date']) })),
  /** the first rows (json), money in pounds */
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  /** the sums of the number columns over every row */
  totals: z.record(z.string(), z.number()),
  total_rows: z.number().int(),
});
export type Report = z.infer<typeof reportSchema>;
