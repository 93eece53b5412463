import type { TemplateKey } from '../../contract/email-templates.ts';
import type { bookings } from '../../db/schema/index.ts';
import type { TemplateContext } from './templates.ts';

/** The booking a preview is made for, as the template editor picked it. */
export type PreviewBooking = {
  booking: typeof bookings.$inferSelect;
  trip: { name: string; departure: string; return: string; deletedAt: Date | null };
};

/**
 * What an email would say to this booking's traveller today: its own figures where it has them,
 * example ones where it has none. Each domain makes the contexts of its own emails (its
 * `emails.ts`); `email-registry.ts` gathers them for the template editor.
 */
export type PreviewContext = (b: PreviewBooking, today: string, now: Date) => Promise<TemplateContext>;
export type EmailPreviews = Partial<Record<TemplateKey, PreviewContext>>;
