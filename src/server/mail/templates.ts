import { eq } from 'drizzle-orm';
import { Liquid, type Template } from 'liquidjs';
import type { Db, Tx } from '../../db/client.ts';
import { emailTemplates } from '../../db/schema/index.ts';
import { TEMPLATE_BODY_MAX, type TemplateKey } from '../../contract/email-templates.ts';
import { validationError } from '../errors.ts';

/**
 * Tripdesk's own wording of each email; staff may change it at /settings/emails. The body is
 * text: paragraphs separated by a blank line.
 */
export const DEFAULT_TEMPLATES: Record<TemplateKey, { subject: string; body: string }> = {
  reminder_before: {
    subject: 'Payment reminder: {{ invoice.ref }} for {{ trip.name }} is due on {{ invoice.due_date }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nThis is a friendly reminder that {{ invoice.outstanding }} for {{ trip.name }} (invoice {{ invoice.ref }}, booking {{ booking.ref }}) is due on {{ invoice.due_date }}, in {{ invoice.days_until_due }} days.\n\n{% if invoice.pay_url %}Pay by card: {{ invoice.pay_url }}\n\n{% endif %}{% if portal.url %}Your booking, its invoices and payments: {{ portal.url }}\n\n{% endif %}If you have already paid, thank you, and please ignore this email.\n\n{{ operator.name }}',
  },
  reminder_due: {
    subject: 'Payment due today: {{ invoice.ref }} for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\n{{ invoice.outstanding }} for {{ trip.name }} (invoice {{ invoice.ref }}, booking {{ booking.ref }}) is due today.\n\n{% if invoice.pay_url %}Pay by card: {{ invoice.pay_url }}\n\n{% endif %}{% if portal.url %}Your booking, its invoices and payments: {{ portal.url }}\n\n{% endif %}If you have already paid, thank you, and please ignore this email.\n\n{{ operator.name }}',
  },
  reminder_overdue: {
    subject: 'Overdue: {{ invoice.ref }} for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nWe have not yet received {{ invoice.outstanding }} for {{ trip.name }} (invoice {{ invoice.ref }}, booking {{ booking.ref }}), which was due on {{ invoice.due_date }}, {{ invoice.days_overdue }} days ago.\n\n{% if invoice.pay_url %}Pay by card: {{ invoice.pay_url }}\n\n{% endif %}{% if portal.url %}Your booking, its invoices and payments: {{ portal.url }}\n\n{% endif %}Please pay it as soon as you can, or reply to this email if anything is wrong.\n\n{{ operator.name }}',
  },
  chaser_passport: {
    subject: 'We need your passport details for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nBefore you travel on {{ trip.name }} on {{ trip.departure }} (booking {{ booking.ref }}) we need your passport details. {{ chase.reason }}\n\n{{ trip.country }} asks for a passport valid for at least {{ trip.passport_months }} months after the trip returns on {{ trip.return }}. {% if portal.url %}Please add its number, issue and expiry dates and a photo of its photo page here: {{ portal.url }}\n\nReply to this email if you have any questions.{% else %}Please send us its number, issue and expiry dates and a scan of the photo page as soon as you can, or reply to this email if you have any questions.{% endif %}\n\n{{ operator.name }}',
  },
  chaser_consent: {
    subject: 'Your consent is needed for {{ traveller.first_name }} on {{ trip.name }}',
    body: 'Dear parent or guardian of {{ traveller.first_name }} {{ traveller.last_name }},\n\nBefore {{ traveller.first_name }} travels on {{ trip.name }} on {{ trip.departure }} (booking {{ booking.ref }}) we need a parent’s consent. {{ chase.reason }}\n\n{% if portal.url %}Please read what you agree to, and give your consent by typing your full name, here: {{ portal.url }}\n\nReply to this email if you have any questions.{% else %}Please reply to this email and we will tell you how to give it.{% endif %}\n\n{{ operator.name }}',
  },
  group_parent_invitation: {
    subject: '{{ traveller.first_name }} is on {{ trip.name }} with {{ group.school }}',
    body: 'Dear {{ parent.name | default: "parent or guardian" }},\n\n{{ group.leader_name }} of {{ group.school }} has added {{ traveller.first_name }} {{ traveller.last_name }} to the school’s group for {{ trip.name }}, from {{ trip.departure }} to {{ trip.return }} (booking {{ booking.ref }}).\n\n{% if portal.url %}On {{ traveller.first_name }}’s page you can give your consent, fill in their details (medical, dietary and emergency contacts), and see and pay the instalments: {{ portal.url }}\n\nThe link works once; after that, sign in with this email address to have a new one sent.{% else %}We will send you a link to {{ traveller.first_name }}’s page, where you can give your consent, fill in their details and pay.{% endif %}\n\nIf you did not expect this email, reply to it and tell us.\n\n{{ operator.name }}',
  },
  chaser_forms: {
    subject: 'Please complete your booking form for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nBefore you travel on {{ trip.name }} on {{ trip.departure }} (booking {{ booking.ref }}) we still need a few details from you. {{ chase.reason }}\n\n{% if portal.url %}Please complete your booking form here: {{ portal.url }}\n\nReply to this email if you have any questions.{% else %}Please complete your booking form as soon as you can, or reply to this email if you have any questions.{% endif %}\n\n{{ operator.name }}',
  },
  fundraising_milestone: {
    subject: 'Your fundraising for {{ trip.name }}: {{ fundraising.percent }}% by {{ fundraising.due }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nThank you for fundraising for {{ charity.name | default: "your charity" }} on {{ trip.name }} (booking {{ booking.ref }}). You have raised {{ fundraising.raised }} of your {{ fundraising.target }} target so far.\n\nYour next milestone is {{ fundraising.percent }}% of your target ({{ fundraising.milestone_amount }}) by {{ fundraising.due }}: {{ fundraising.short }} still to raise by then. {% if fundraising.page_url %}Your page: {{ fundraising.page_url }}{% endif %}\n\n{% if portal.url %}If you have raised more than we know of, update your total here: {{ portal.url }}{% else %}If you have raised more than we know of, reply to this email and tell us, and we will update your total.{% endif %}\n\n{{ operator.name }}',
  },
  fundraising_summary: {
    subject: '{{ charity.name }}: your fundraisers in {{ summary.month }}',
    body: 'Dear {{ recipient.first_name }},\n\nHere is how the {{ summary.count }} travellers fundraising for {{ charity.name }} stand at the start of {{ summary.month }}: {{ summary.raised }} raised of {{ summary.pledged }} pledged; {{ summary.met }} have met their target and {{ summary.behind }} are behind a milestone.\n\n{{ summary.lines }}\n\nIf any of them has raised more than this shows, reply to this email and tell us, and we will update their total.\n\n{{ operator.name }}',
  },
  payment_receipt: {
    subject: 'Receipt: {{ payment.amount }} paid on {{ invoice.ref }} for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nThank you: we have received your card payment of {{ payment.amount }} on {{ payment.date }} for {{ trip.name }} (invoice {{ invoice.ref }}, booking {{ booking.ref }}).\n\n{% if invoice.outstanding == "£0.00" %}This invoice is now paid in full.{% else %}{{ invoice.outstanding }} is still outstanding on this invoice.{% endif %}\n\nPayment reference: {{ payment.reference }}\n\n{% if portal.url %}Your booking and its payments: {{ portal.url }}\n\n{% endif %}{{ operator.name }}',
  },
  waiting_list_offer: {
    subject: 'A place on {{ trip.name }} is yours to book',
    body: 'Dear {{ traveller.first_name }},\n\nGood news: {% if offer.places == 1 %}a place has{% else %}{{ offer.places }} places have{% endif %} come free on {{ trip.name }}, departing on {{ trip.departure }}, and {% if offer.places == 1 %}it is{% else %}they are{% endif %} held for you until {{ offer.until }}.\n\nBook here: {{ offer.url }}\n\nIf you no longer want {% if offer.places == 1 %}it{% else %}them{% endif %}, you need do nothing: after that time the offer passes to the next person in line.\n\n{{ operator.name }}',
  },
  booking_transferred: {
    subject: 'Booking {{ booking.ref }} for {{ trip.name }} has passed to {{ transfer.to_name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nThe place on {{ trip.name }}, departing on {{ trip.departure }} (booking {{ booking.ref }}), has passed from {{ transfer.from_name }} to {{ transfer.to_name }}.\n\n{% if transfer.to_you %}The booking, and what has been paid on it, is now yours. Please give us your passport, medical and next-of-kin details before you travel{% if portal.url %}: {{ portal.url }}{% else %}.{% endif %}{% else %}You are no longer travelling on this booking, and we no longer hold your passport or medical details for it.{% endif %}\n\n{% if transfer.fee != "£0.00" %}A transfer fee of {{ transfer.fee }} is invoiced to the booking.\n\n{% endif %}{{ operator.name }}',
  },
  charity_fundraiser_changed: {
    subject:
      '{% if fundraiser.joined %}A new fundraiser for {{ charity.name }}{% else %}A fundraiser no longer raises for {{ charity.name }}{% endif %}: {{ traveller.first_name }} {{ traveller.last_name }}',
    body: 'Dear {{ recipient.first_name }},\n\n{% if fundraiser.joined %}{{ traveller.first_name }} {{ traveller.last_name }} now raises money for {{ charity.name }} on {{ trip.name }}, departing on {{ trip.departure }} (booking {{ booking.ref }}), with a target of {{ fundraiser.target }}. You will see them among your fundraisers.{% else %}{{ traveller.first_name }} {{ traveller.last_name }} (booking {{ booking.ref }}, {{ trip.name }}, departing on {{ trip.departure }}) no longer raises money for {{ charity.name }}. What they raised so far stays on record.{% endif %}\n\n{{ operator.name }}',
  },
  booking_moved: {
    subject: 'Your booking {{ booking.ref }} has moved to {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nYour booking {{ booking.ref }} has moved from {{ move.from_name }} ({{ move.from_departure }}) to {{ trip.name }}, departing on {{ trip.departure }}. What you have paid moves with it.\n\n{% if move.schedule != "" %}Still to pay: {{ move.schedule }}.\n\n{% endif %}{% if move.refund_owed != "£0.00" %}We will refund you {{ move.refund_owed }} within 14 days.\n\n{% endif %}{% if move.fee != "£0.00" %}A move fee of {{ move.fee }} is invoiced to the booking.\n\n{% endif %}{% if portal.url %}Your booking and its payments: {{ portal.url }}\n\n{% endif %}{{ operator.name }}',
  },
  booking_cancelled: {
    subject: 'Your booking {{ booking.ref }} for {{ trip.name }} is cancelled',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nYour booking {{ booking.ref }} for {{ trip.name }}, departing on {{ trip.departure }}, is cancelled.\n\nReason: {{ cancellation.reason }}\n\n{% if cancellation.fee_waived %}No cancellation fee is charged.{% else %}The cancellation fee is {{ cancellation.fee }}.{% endif %} You have paid {{ cancellation.paid }}.\n\n{% if cancellation.refund_owed != "£0.00" %}We will refund you {{ cancellation.refund_owed }} by {{ cancellation.refund_due_on }}.\n\n{% endif %}{% if cancellation.still_owed != "£0.00" %}{{ cancellation.still_owed }} of the fee is still to pay: we will send you an invoice for it.\n\n{% endif %}{% if portal.url %}Your booking and its payments: {{ portal.url }}\n\n{% endif %}{{ operator.name }}',
  },
  booking_received: {
    subject: 'Your booking {{ booking.ref }} for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nThank you for booking {{ trip.name }}, departing on {{ trip.departure }}. Your booking reference is {{ booking.ref }}.\n\n{{ booking.next }}\n\n{% if deposit.pay_url != "" %}Pay your {{ deposit.amount }} deposit by card here: {{ deposit.pay_url }}\n\n{% endif %}{% if deposit.bank_details != "" %}How to pay by bank transfer: {{ deposit.bank_details }}\n\n{% endif %}{% if portal.url %}Your booking, its payments and the details we need from you before you travel: {{ portal.url }}\n\n{% endif %}{{ operator.name }}',
  },
  sign_in_link: {
    subject: 'Your sign-in link for {{ operator.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nHere is your link to sign in to your bookings with {{ operator.name }}:\n\n{{ sign_in.url }}\n\nIt works once, for the next {{ sign_in.minutes }} minutes. If you did not ask for it, you can ignore this email: nobody can sign in without it.\n\n{{ operator.name }}',
  },
  trip_documents: {
    subject: 'Your documents for {{ trip.name }}',
    body: 'Dear {{ traveller.preferred_name | default: traveller.first_name }},\n\nPlease find attached the documents for {{ trip.name }}, departing on {{ trip.departure }} (booking {{ booking.ref }}): {{ documents.names }}.\n\nPlease read them before you travel{% if portal.url %}; they are also on your booking’s page: {{ portal.url }}\n\nReply to this email{% else %}, and reply to this email{% endif %} if you have any questions.\n\n{{ operator.name }}',
  },
};

/** What a template may print: every email has the traveller, booking, trip and operator; the rest as its kind needs. */
export type TemplateContext = {
  traveller?: { title: string | null; first_name: string; last_name: string; preferred_name: string | null };
  booking?: { ref: string; status?: string; next?: string };
  /** a school group (issue 37): the school and its group leader */
  group?: { school: string; leader_name: string };
  /** the parent a pupil's invitation goes to */
  parent?: { name: string };
  /** a waiting list's offer of freed places */
  offer?: { url: string; places: number; until: string };
  /** a booking moved to another departure: the trip is the new one */
  move?: { from_name: string; from_departure: string; fee: string; refund_owed: string; schedule: string };
  /** a fundraiser joining (joined) or leaving a charity, told to the charity */
  fundraiser?: { joined: boolean; target: string };
  /** a booking passed to another traveller: to_you is true in the email to the new traveller */
  transfer?: { from_name: string; to_name: string; fee: string; to_you: boolean };
  /** a booking cancelled: what was kept and what is owed either way, in pounds as text */
  cancellation?: {
    reason: string;
    fee: string;
    paid: string;
    refund_owed: string;
    refund_due_on: string;
    still_owed: string;
    fee_waived: boolean;
  };
  /** what an online booking pays now, and how */
  deposit?: { amount: string; pay_url: string; bank_details: string };
  trip?: { name: string; departure: string; return?: string; country?: string; passport_months?: number };
  /** the member of a charity an email to a charity goes to */
  recipient?: { first_name: string; last_name: string };
  summary?: {
    month: string;
    count: number;
    behind: number;
    met: number;
    raised: string;
    pledged: string;
    lines: string;
  };
  invoice?: {
    ref: string;
    total: string;
    outstanding: string;
    due_date: string;
    days_until_due?: number;
    days_overdue?: number;
    pay_url?: string;
  };
  payment?: { amount: string; date: string; reference: string };
  /** a traveller's emailed sign-in link (never kept: only a digest of its secret is stored) */
  sign_in?: { url: string; minutes: number };
  chase?: { reason: string };
  /** the link that signs the traveller in to the booking the email is about (empty when none can be made) */
  portal?: { url: string };
  documents?: { names: string; count: number };
  charity?: { name: string | null };
  fundraising?: {
    raised: string;
    target: string;
    percent: number;
    milestone_amount: string;
    due: string;
    short: string;
    page_url: string | null;
  };
  operator: { name: string };
};

const DAY = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
/** A date as the emails print it: 01 Jun 2031. */
export const emailDate = (iso: string) => DAY.format(new Date(iso.slice(0, 10) + 'T00:00:00Z'));

// Liquid was made for templates written by people who may not run code: no JavaScript, no file
// includes here, loops bounded by the data. Every value printed is HTML-escaped in the HTML part.
// {% include %}, {% render %} and {% layout %} find nothing: templates are one text each
const noFiles = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => Promise.reject(new Error('templates cannot include files')),
  readFileSync: () => {
    throw new Error('templates cannot include files');
  },
  resolve: (_dir: string, file: string) => file,
  contains: async () => false,
  containsSync: () => false,
  dirname: () => '',
};
/** The longest a template may take to render, in milliseconds: more is refused when it is saved. */
export const RENDER_LIMIT_MS = 50;
// when an email is made, a render that ran out of time is tried once more with this much: its
// template's work was checked when it was saved, so what ran over was the machine, not the template
const RETRY_RENDER_LIMIT_MS = 2_000;
// renderLimit is a time in milliseconds, checked as each part of a template is rendered: no
// template, however it loops, holds the server's event loop for much longer than that
const options = {
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  cache: false,
  relativeReference: false,
  fs: noFiles,
  root: [],
  partials: [],
  layouts: [],
  memoryLimit: 1e6,
  renderLimit: RENDER_LIMIT_MS,
  parseLimit: TEMPLATE_BODY_MAX * 2,
};
const htmlEngine = new Liquid({ ...options, outputEscape: 'escape' });
const textEngine = new Liquid(options);
// the two ways around the escaping: the raw filter, and the raw tag (its content is printed as
// written, so a "{{ "<script>" }}" inside it would reach the HTML part unescaped); both are
// refused when a template is checked, and gone from the engines should one be stored anyway
for (const engine of [htmlEngine, textEngine]) {
  engine.unregisterFilter('raw');
  delete (engine.tags as Record<string, unknown>).raw;
}
// each template's source is parsed once per engine: every booking, reminder and chaser renders the same few
const PARSED_KEPT = 500;
const parsedBy = new Map<Liquid, Map<string, Template[]>>([
  [htmlEngine, new Map()],
  [textEngine, new Map()],
]);
function renderSync(engine: Liquid, source: string, context: object): string {
  const kept = parsedBy.get(engine)!;
  let parsed = kept.get(source);
  if (!parsed) {
    parsed = engine.parse(source);
    if (kept.size >= PARSED_KEPT) kept.clear();
    kept.set(source, parsed);
  }
  try {
    return engine.renderSync(parsed, context, { renderLimit: RETRY_RENDER_LIMIT_MS }) as string;
  } catch (error) {
    // a render that runs out of time is tried again with more: a pause of the machine's (a busy
    // core, a collection) is not the template's, whose work was checked when it was saved
    if (!/render limit exceeded/.test((error as Error).message)) throw error;
    return engine.renderSync(parsed, context, { renderLimit: RETRY_RENDER_LIMIT_MS }) as string;
  }
}
const AROUND_ESCAPING = /\|\s*raw\b|{%-?\s*(?:end)?raw\b/;
// inside {% liquid %}, a tag is a line of its own
const LIQUID_BLOCK = /{%-?\s*liquid\b([\s\S]*?)-?%}/g;
const RAW_TAG_LINE = /^\s*(?:end)?raw\b/m;
const printsUnescaped = (source: string) =>
  AROUND_ESCAPING.test(source) || [...source.matchAll(LIQUID_BLOCK)].some((m) => RAW_TAG_LINE.test(m[1]!));

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A template that does not parse, or that would print a value unescaped, is refused with the reason, under the field at fault. */
export function checkTemplate(t: { subject: string; body: string }) {
  for (const field of ['subject', 'body'] as const) {
    if (printsUnescaped(t[field])) {
      throw validationError({
        [field]: [`Every value in an email is printed as text: remove “raw” from the ${field}.`],
      });
    }
    try {
      textEngine.parse(t[field]);
    } catch (error) {
      throw validationError({
        [field]: [`The ${field} cannot be read: ${(error as Error).message.split(', line:')[0]}.`],
      });
    }
  }
}

/** Example values for every placeholder, for timing a template before it is saved. */
const SAMPLE_CONTEXT: TemplateContext = {
  traveller: { title: 'Ms', first_name: 'Sam', last_name: 'Sample', preferred_name: null },
  booking: { ref: 'TD-SAMPLE' },
  trip: { name: 'Sample Trek', departure: '01 Jun 2031', return: '10 Jun 2031', country: 'Peru', passport_months: 6 },
  recipient: { first_name: 'Sam', last_name: 'Sample' },
  summary: {
    month: 'June 2031',
    count: 40,
    behind: 5,
    met: 10,
    raised: '£40,000.00',
    pledged: '£100,000.00',
    lines: 'Sam Sample, Sample Trek: £1,000.00 of £2,500.00 (behind)\n'.repeat(40),
  },
  invoice: {
    ref: 'INV-0000',
    total: '£2,000.00',
    outstanding: '£1,700.00',
    due_date: '06 Apr 2031',
    days_until_due: 7,
    days_overdue: 3,
  },
  chase: { reason: 'No passport details yet.' },
  documents: { names: 'Kit list, Itinerary', count: 2 },
  charity: { name: 'Sample Charity' },
  fundraising: {
    raised: '£1,000.00',
    target: '£2,500.00',
    percent: 50,
    milestone_amount: '£1,250.00',
    due: '01 Mar 2031',
    short: '£250.00',
    page_url: 'https://example.org/sam',
  },
  operator: { name: 'Tripdesk Adventures Ltd' },
};

/**
 * A template that would take more than RENDER_LIMIT_MS to render (a loop within a loop) is
 * refused when it is saved, rather than failing at every send. Rendered with example values;
 * a render that runs out of time is tried twice more before it is refused, so that a pause of the
 * machine's is not blamed on the template.
 */
export async function checkTemplateWork(t: { subject: string; body: string }) {
  for (const field of ['subject', 'body'] as const) {
    let took = Infinity;
    for (let attempt = 0; attempt < 3 && took > RENDER_LIMIT_MS; attempt++) {
      const started = performance.now();
      try {
        htmlEngine.parseAndRenderSync(t[field], SAMPLE_CONTEXT);
        took = performance.now() - started;
      } catch (error) {
        if (!/limit exceeded/.test((error as Error).message))
          throw validationError({
            [field]: [`The ${field} cannot be read: ${(error as Error).message.split(', line:')[0]}.`],
          });
      }
    }
    if (took > RENDER_LIMIT_MS) throw validationError({ [field]: ['This template does too much work.'] });
  }
}

/**
 * The email from a template: the subject and text part as written with the values in, and an
 * HTML part in which the staff's own words are escaped text too (each blank-line paragraph a
 * <p>) and every value is escaped, so a traveller named "<script>" stays text.
 */
export async function renderTemplate(t: { subject: string; body: string }, context: TemplateContext) {
  const subject = renderSync(textEngine, t.subject, context).replace(/\s+/g, ' ').trim();
  const text = renderSync(textEngine, t.body, context).replace(/\r\n/g, '\n').trim();
  // the literal text is escaped before Liquid sees it; Liquid's own markup keeps its < and >
  const escapedSource = t.body.replace(
    /({{[\s\S]*?}}|{%[\s\S]*?%})|([^{]+|{)/g,
    (_m, tag: string | undefined, literal: string | undefined) => tag ?? escapeHtml(literal ?? ''),
  );
  const rendered = renderSync(htmlEngine, escapedSource, context).replace(/\r\n/g, '\n').trim();
  const html = rendered
    .split(/\n{2,}/)
    .map((p: string) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return { subject, text, html };
}

/** A template as staff have worded it, or Tripdesk's own wording when they have not. */
export async function templateOf(
  db: Db | Tx,
  key: TemplateKey,
): Promise<{ subject: string; body: string; isDefault: boolean; updatedAt: Date | null }> {
  const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.key, key));
  return row
    ? { subject: row.subject, body: row.body, isDefault: false, updatedAt: row.updatedAt }
    : { ...DEFAULT_TEMPLATES[key], isDefault: true, updatedAt: null };
}
