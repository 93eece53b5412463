import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../client.ts';

/**
 * What the generated history is made of: the actions the services record
 * (src/server/modules/**\/service.ts and friends), what each is about, and how often it happens in
 * a year of a busy office, in parts of 1,000. `scope` says whether an event belongs to a booking
 * (and so to its trip too), to a trip alone, or to the office.
 */
const KINDS: Array<{ action: string; subject: string; scope: 'booking' | 'trip' | 'office'; weight: number }> = [
  { action: 'booking.updated', subject: 'booking', scope: 'booking', weight: 170 },
  { action: 'booking.status_changed', subject: 'booking', scope: 'booking', weight: 60 },
  { action: 'booking.created', subject: 'booking', scope: 'booking', weight: 46 },
  { action: 'booking.sensitive_viewed', subject: 'booking', scope: 'booking', weight: 60 },
  { action: 'transaction.recorded', subject: 'transaction', scope: 'booking', weight: 95 },
  { action: 'transaction.struck_out', subject: 'transaction', scope: 'booking', weight: 4 },
  { action: 'invoice.created', subject: 'invoice', scope: 'booking', weight: 60 },
  { action: 'invoice.sent', subject: 'invoice', scope: 'booking', weight: 50 },
  { action: 'invoice.deleted', subject: 'invoice', scope: 'booking', weight: 3 },
  { action: 'email.sent', subject: 'invoice', scope: 'booking', weight: 85 },
  { action: 'email.failed', subject: 'invoice', scope: 'booking', weight: 2 },
  { action: 'note.created', subject: 'note', scope: 'booking', weight: 70 },
  { action: 'note.updated', subject: 'note', scope: 'booking', weight: 8 },
  { action: 'note.deleted', subject: 'note', scope: 'booking', weight: 3 },
  { action: 'trip.updated', subject: 'trip', scope: 'trip', weight: 16 },
  { action: 'trip.created', subject: 'trip', scope: 'trip', weight: 1 },
  { action: 'trip.archived', subject: 'trip', scope: 'trip', weight: 1 },
  { action: 'addon.updated', subject: 'addon', scope: 'trip', weight: 6 },
  { action: 'addon.created', subject: 'addon', scope: 'trip', weight: 2 },
  { action: 'custom_field.updated', subject: 'custom_field', scope: 'trip', weight: 3 },
  { action: 'custom_field.created', subject: 'custom_field', scope: 'trip', weight: 2 },
  { action: 'document.uploaded', subject: 'document', scope: 'trip', weight: 5 },
  { action: 'document.created', subject: 'document', scope: 'trip', weight: 2 },
  { action: 'export.bookings', subject: 'booking_export', scope: 'trip', weight: 8 },
  { action: 'export.passport_images', subject: 'passport_export', scope: 'trip', weight: 2 },
  { action: 'auth.signed_in', subject: 'user', scope: 'office', weight: 170 },
  { action: 'auth.signed_out', subject: 'user', scope: 'office', weight: 50 },
  { action: 'user.updated', subject: 'user', scope: 'office', weight: 3 },
  { action: 'user.created', subject: 'user', scope: 'office', weight: 1 },
  { action: 'discount.updated', subject: 'discount', scope: 'office', weight: 3 },
  { action: 'discount.created', subject: 'discount', scope: 'office', weight: 2 },
  { action: 'charity.updated', subject: 'charity', scope: 'office', weight: 2 },
  { action: 'oauth.token.issued', subject: 'oauth_client', scope: 'office', weight: 5 },
];

const JOBS = ['payment reminders', 'invoice reminders', 'passport reminders'];
const PROCESSORS = ['Stripe', 'Bank transfer', 'Cheque', 'Cash', 'PayPal'];
const BOOKING_FIELDS = [
  'room_ref',
  'mobile',
  'passport_number',
  'medical_detail',
  'address_1',
  'dietary',
  'share_with',
  'emergency_contact_name',
];

const text = (values: string[]) =>
  sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`);
const ints = (values: number[]) => sql.raw(`ARRAY[${values.join(',')}]::int[]`);

/** The helper table of the run: the bookings numbered 1…n, so that a hash picks one with an index probe. */
const PICK = 'tripdesk_seed_audit_bookings';

/**
 * Adds `total` history events over the last three years, oldest first (as the table fills in
 * life), made inside the database by one INSERT … SELECT per batch: actions of every kind the
 * services record, by the office's administrators and charity users (signed in, with a personal
 * token or an OAuth client) and by the reminder jobs, about real bookings and trips. Values come
 * from hashes of the row number, so a run on the same office makes the same events.
 */
export async function seedAuditEvents(db: Db, total: number, onProgress: (done: number) => void, batch = 50_000) {
  const staff = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, trim(first_name || ' ' || last_name) as name from users where user_role_id in (1, 2) order by id`,
  );
  if (!staff.length)
    throw new Error('There are no administrators or charity users to act: load the demo office first.');
  const tripRows = await queryRows<{ id: number; name: string }>(db, sql`select id, name from trips order by id`);
  if (!tripRows.length) throw new Error('There are no trips to record history about: load the demo office first.');
  const [last] = await queryRows<{ n: string | number | null }>(db, sql`select max(id) as n from audit_events`);
  const offset = Number(last?.n ?? 0);

  await db.execute(sql.raw(`drop table if exists ${PICK}`));
  await db.execute(
    sql.raw(`create table ${PICK} as
      select (row_number() over (order by b.id))::int as n, b.id, b.trip_id, b.ref, b.first_name || ' ' || b.last_name as name,
        b.email, t.name as trip_name
      from bookings b join trips t on t.id = b.trip_id`),
  );
  try {
    await db.execute(sql.raw(`alter table ${PICK} add primary key (n)`));
    const [countRow] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${PICK}`));
    const bookingCount = Number(countRow?.n ?? 0);
    if (!bookingCount) throw new Error('There are no bookings to record history about: load the demo office first.');

    const picks: number[] = [];
    KINDS.forEach((k, i) => {
      for (let w = 0; w < k.weight; w++) picks.push(i + 1);
    });
    const actions = text(KINDS.map((k) => k.action));
    const subjects = text(KINDS.map((k) => k.subject));
    const scopes = text(KINDS.map((k) => k.scope));
    const staffIds = ints(staff.map((s) => Number(s.id)));
    const staffNames = text(staff.map((s) => s.name));
    const tripIds = ints(tripRows.map((t) => Number(t.id)));
    const tripNames = text(tripRows.map((t) => t.name));
    const spanSecs = 3 * 365 * 86400;
    const start = new Date(Date.now() - spanSecs * 1000).toISOString();
    const first = offset + 1;
    const pickTable = sql.raw(PICK);

    for (let done = 0; done < total; done += batch) {
      const from = offset + done + 1;
      const to = offset + Math.min(done + batch, total);
      await db.execute(sql`
        insert into audit_events (at, actor_type, actor_user_id, actor_name, actor_token_id, actor_client_id, source, ip_address,
          action, subject_type, subject_id, booking_id, trip_id, changes, summary, details)
        select at, actor_type, case when actor_type = 'system' then null else staff_id end, actor_name,
          case when actor_type in ('personal_token', 'oauth_client') then 'tok_' || lpad((h4 % 40)::text, 4, '0') end,
          case when actor_type = 'oauth_client' then 'client-' || (h4 % 3 + 1) end,
          case actor_type when 'system' then 'system' when 'user' then 'web' else 'api' end,
          case when actor_type = 'system' then null when actor_type = 'user' then '10.20.' || (h4 % 8) || '.' || (h5 % 250 + 2)
            else '203.0.113.' || (h5 % 250 + 2) end,
          action, subject_type,
          case subject_type
            when 'booking' then booking_id::text
            when 'trip' then trip_id::text
            when 'user' then coalesce(staff_id, 1)::text
            when 'booking_export' then null
            when 'passport_export' then null
            when 'oauth_client' then 'client-' || (h4 % 3 + 1)
            else (1 + h6 % 400000)::text end,
          booking_id, trip_id,
          case
            when action = 'booking.updated' then jsonb_build_object(field, jsonb_build_array(old_value, new_value))
            when action = 'booking.status_changed' then jsonb_build_object('status', jsonb_build_array(status_from, status_to))
            when action in ('trip.updated', 'addon.updated') then jsonb_build_object('price', jsonb_build_array(pounds, pounds + 50))
            when action in ('user.updated', 'discount.updated', 'charity.updated', 'custom_field.updated') then jsonb_build_object('name', jsonb_build_array('Old name', 'New name'))
          end,
          actor_name || ' ' || case action
            when 'booking.updated' then 'changed ' || replace(field, '_', ' ') || ' from ' || coalesce(old_value, 'nothing') || ' to ' || coalesce(new_value, 'nothing')
            when 'booking.status_changed' then 'changed status from ' || status_from || ' to ' || status_to
            when 'booking.created' then 'made the booking ' || ref || ' for ' || traveller || ' on ' || trip_name
            when 'booking.sensitive_viewed' then 'viewed the passport and medical details of the booking ' || ref || ' (' || traveller || ')'
            when 'transaction.recorded' then 'recorded a ' || pay_type || ' of £' || to_char(pounds, 'FM999,990') || '.00 (' || processor || ') on ' || invoice_ref
            when 'transaction.struck_out' then 'struck out a ' || pay_type || ' of £' || to_char(pounds, 'FM999,990') || '.00 on ' || invoice_ref
            when 'invoice.created' then 'raised the deposit invoice ' || invoice_ref || ' for £' || to_char(pounds, 'FM999,990') || '.00'
            when 'invoice.sent' then 'emailed invoice ' || invoice_ref || ' to ' || traveller || ' (' || email || ')'
            when 'invoice.deleted' then 'deleted the invoice ' || invoice_ref
            when 'email.sent' then 'emailed "Your invoice ' || invoice_ref || '" to ' || email
            when 'email.failed' then 'could not email "Your invoice ' || invoice_ref || '" to ' || email || ': the mail server refused it (550)'
            when 'note.created' then 'added a note to the booking ' || ref
            when 'note.updated' then 'edited a note of the booking ' || ref
            when 'note.deleted' then 'deleted a note of the booking ' || ref
            when 'trip.updated' then 'changed price of the trip ' || trip_name || ' from ' || pounds || ' to ' || (pounds + 50)
            when 'trip.created' then 'created the trip ' || trip_name
            when 'trip.archived' then 'archived the trip ' || trip_name
            when 'addon.updated' then 'changed price of the add-on Travel insurance of the trip ' || trip_name || ' from ' || pounds || ' to ' || (pounds + 50)
            when 'addon.created' then 'added the add-on Travel insurance to the trip ' || trip_name
            when 'custom_field.updated' then 'changed name of the custom field T-shirt size of the trip ' || trip_name
            when 'custom_field.created' then 'added the custom field T-shirt size to the trip ' || trip_name
            when 'document.uploaded' then 'uploaded the file kit-list.pdf for the document Kit list of the trip ' || trip_name
            when 'document.created' then 'added the document Kit list to the trip ' || trip_name
            when 'export.bookings' then 'exported ' || (h6 % 900 + 1) || ' bookings to a spreadsheet'
            when 'export.passport_images' then 'downloaded the passport images of ' || (h6 % 90 + 1) || ' bookings of the trip ' || trip_name
            when 'auth.signed_in' then 'signed in'
            when 'auth.signed_out' then 'signed out'
            when 'user.updated' then 'changed name of the user ' || staff_name
            when 'user.created' then 'added the user ' || staff_name
            when 'discount.updated' then 'changed name of the discount EARLY' || (h6 % 20)
            when 'discount.created' then 'added the discount EARLY' || (h6 % 20)
            when 'charity.updated' then 'changed name of the charity'
            when 'oauth.token.issued' then 'was issued an access token'
            else replace(action, '.', ' ') end,
          case
            when action in ('booking.status_changed', 'booking.created') then jsonb_build_object('ref', ref)
            when action = 'booking.sensitive_viewed' then jsonb_build_object('ref', ref, 'fields', jsonb_build_array('passport_number', 'passport_expiry', 'medical_detail'))
            when action in ('transaction.recorded', 'transaction.struck_out') then jsonb_build_object('type', pay_type, 'amount', pounds, 'processor', processor,
              'date', to_char(at, 'YYYY-MM-DD'), 'notes', null, 'invoice_id', 1 + h6 % 400000, 'invoice_ref', invoice_ref)
            when action = 'invoice.sent' then jsonb_build_object('ref', invoice_ref, 'to', email, 'message_id', '<' || g || '@tripdesk.test>', 'outcome', 'sent')
            when action in ('email.sent', 'email.failed') then jsonb_build_object('to', email, 'subject', 'Your invoice ' || invoice_ref,
              'text', 'Dear ' || traveller || E',\n\nPlease find attached your invoice ' || invoice_ref || ' for your place on ' || trip_name
                || E'. The balance is due eight weeks before departure; you can pay by card or bank transfer.\n\nKind regards,\nThe Tripdesk team',
              'attachments', jsonb_build_array(invoice_ref || '.pdf'),
              'outcome', case when action = 'email.failed' then 'refused' else 'sent' end,
              'message_id', case when action = 'email.failed' then null else '<' || g || '@tripdesk.test>' end)
            when action like 'note.%' then jsonb_build_object('excerpt', 'Called ' || traveller || ' about the balance; will pay by the end of the month.')
            when action like 'export.%' then jsonb_build_object('filters', jsonb_build_object('trip_id', trip_id), 'rows', h6 % 900 + 1)
          end
        from (
          select e.*,
            case e.actor_type
              when 'system' then 'System (' || (${text(JOBS)})[1 + e.h4 % ${JOBS.length}] || ')'
              when 'personal_token' then e.staff_name || ' (personal access token)'
              when 'oauth_client' then e.staff_name || ' (through an OAuth client)'
              else e.staff_name end as actor_name,
            case e.field
              when 'room_ref' then 'R' || lpad((1 + e.v1 % 40)::text, 2, '0')
              when 'mobile' then '07700 9' || lpad((e.h4 % 100000)::text, 5, '0')
              when 'passport_number' then '•••' || lpad((e.h4 % 1000)::text, 3, '0')
              when 'address_1' then (1 + e.v1) || ' High Street'
              when 'medical_detail' then '(hidden)'
              when 'dietary' then '(hidden)'
              else e.traveller end as old_value,
            case e.field
              when 'room_ref' then 'R' || lpad((1 + e.v2 % 40)::text, 2, '0')
              when 'mobile' then '07700 9' || lpad((e.h6 % 100000)::text, 5, '0')
              when 'passport_number' then '•••' || lpad((e.h6 % 1000)::text, 3, '0')
              when 'address_1' then (1 + e.v2) || ' Station Road'
              when 'medical_detail' then '(hidden)'
              when 'dietary' then '(hidden)'
              else (${text(['Alex Green', 'Sam Patel', 'Jo Evans', 'Chris Walker'])})[1 + e.v2 % 4] end as new_value,
            (array['provisional', 'confirmed', 'provisional'])[1 + e.h6 % 3] as status_from,
            (array['confirmed', 'cancelled', 'cancelled'])[1 + e.h6 % 3] as status_to,
            case when e.h5 % 9 = 0 then 'refund' else 'payment' end as pay_type,
            (${text(PROCESSORS)})[1 + e.h4 % ${PROCESSORS.length}] as processor,
            10 * (1 + e.h6 % 180) as pounds,
            'INV-' || lpad((1000 + e.h6 % 400000)::text, 6, '0') as invoice_ref
          from (
            select x.g, x.at, x.h4, x.h5, x.h6,
              (${actions})[x.k] as action, (${subjects})[x.k] as subject_type,
              case
                when (${actions})[x.k] like 'auth.%' then 'user'
                when (${actions})[x.k] in ('email.sent', 'email.failed', 'invoice.sent') and x.r < 35 then 'system'
                when x.r < 88 then 'user'
                when x.r < 96 then 'personal_token'
                else 'oauth_client' end as actor_type,
              (${staffIds})[x.si] as staff_id, (${staffNames})[x.si] as staff_name,
              b.id as booking_id,
              case (${scopes})[x.k] when 'booking' then b.trip_id when 'trip' then (${tripIds})[x.ti] end as trip_id,
              coalesce(b.trip_name, (${tripNames})[x.ti]) as trip_name,
              b.ref, b.name as traveller, b.email,
              x.h4 % 60 as v1, x.h6 % 60 as v2,
              (${text(BOOKING_FIELDS)})[1 + x.h5 % ${BOOKING_FIELDS.length}] as field
            from (
              select g,
                ${start}::timestamptz + make_interval(secs => ${spanSecs}::float8 * ((g - ${first})::float8 + ((hashint4(g + 3) & 2147483647) % 1000) / 1000.0) / ${total}::float8) as at,
                (${ints(picks)})[1 + (hashint4(g) & 2147483647) % ${picks.length}] as k,
                (hashint4(g + 1) & 2147483647) % 100 as r,
                1 + (hashint4(g + 2) & 2147483647) % ${staff.length} as si,
                1 + (hashint4(g + 7) & 2147483647) % ${tripRows.length} as ti,
                1 + (hashint4(g + 8) & 2147483647) % ${bookingCount} as bn,
                (hashint4(g + 4) & 2147483647) as h4, (hashint4(g + 5) & 2147483647) as h5, (hashint4(g + 6) & 2147483647) as h6
              from generate_series(${from}::int, ${to}::int) g
            ) x
            left join lateral (
              select p.id, p.trip_id, p.ref, p.name, p.email, p.trip_name from ${pickTable} p where p.n = x.bn and (${scopes})[x.k] = 'booking'
            ) b on true
          ) e
        ) f`);
      onProgress(Math.min(done + batch, total));
    }
  } finally {
    await db.execute(sql.raw(`drop table if exists ${PICK}`));
  }
  // a settled table, as autovacuum leaves it: statistics, and a visibility map for index-only scans
  await db.execute(sql`vacuum analyze audit_events`);
}
