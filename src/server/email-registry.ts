import type { TemplateKey } from '../contract/email-templates.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from './clock.ts';
import type { Operator } from './common/operator.ts';
import type { PreviewContext } from './mail/previews.ts';
import { previews as cardPayments } from './modules/card-payments/emails.ts';
import { previews as changes } from './modules/changes/emails.ts';
import { previews as chasers } from './modules/chasers/emails.ts';
import { previews as documents } from './modules/documents/emails.ts';
import { previews as fundraising } from './modules/fundraising/emails.ts';
import { previews as groups } from './modules/groups/emails.ts';
import { previews as my } from './modules/my/emails.ts';
import { previews as onlineBooking } from './modules/online-booking/emails.ts';
import type { FundraisingDefaults } from './modules/fundraising/service.ts';
import { previews as schedules } from './modules/schedules/emails.ts';

/*
 * The one place the emails staff word are gathered: each domain says, in its own emails.ts, how
 * its emails are previewed for a booking; the template editor (modules/emails) imports no domain.
 */
export type EmailDeps = {
  db: Db;
  operator: Operator;
  clock: Pick<Clock, 'now'>;
  fundraisingDefaults: FundraisingDefaults;
  /** the address travellers reach Tripdesk at, for the links the previews show */
  publicUrl?: string;
};

/** Every email's preview; a key with none fails to compile. */
export function emailPreviews(d: EmailDeps): Record<TemplateKey, PreviewContext> {
  return {
    ...schedules(d),
    ...chasers(d),
    ...documents(d),
    ...fundraising(d),
    ...cardPayments(d),
    ...my(d),
    ...onlineBooking(d),
    ...changes(d),
    ...groups(d),
  } as Record<TemplateKey, PreviewContext> satisfies Record<TemplateKey, PreviewContext>;
}
