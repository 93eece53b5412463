import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import type { ErasedField, RetentionPreview } from '../../../contract/retention.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { RecordLoader } from '../../components/form-frame.tsx';
import { api } from '../../lib/api.ts';
import { formatShortDate } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';

type Due = RetentionPreview['bookings'][number];

const FIELD_LABELS: Record<ErasedField, string> = {
  passport_number: 'passport number',
  passport_issue_date: 'passport issue date',
  passport_expiry_date: 'passport expiry',
  passport_image: 'passport image',
  nationality: 'nationality',
  medical_conditions: 'medical conditions',
  medical_detail: 'medical detail',
  medication: 'medication',
  dietary: 'dietary',
  insurance_policy_number: 'insurance policy number',
  nok_name: 'next of kin',
  nok_relationship: 'next of kin relationship',
  nok_email: 'next of kin email',
  nok_telephone: 'next of kin telephone',
  nok_address: 'next of kin address',
};

/** the columns; the traveller a link to the booking only for a team that may read bookings */
const columnsFor = (canOpenBooking: boolean): Array<Column<Due>> => [
  {
    key: 'traveller',
    label: 'Traveller',
    cell: (b) => (
      <Stack gap={0}>
        {canOpenBooking ? (
          <Anchor component={Link} to={path('booking-view', { id: b.booking_id })} size="sm" fw={600}>
            {b.traveller}
          </Anchor>
        ) : (
          <Text size="sm" fw={600}>
            {b.traveller}
          </Text>
        )}
        <Text size="xs" c="dimmed" ff="monospace">
          {b.booking_ref}
        </Text>
      </Stack>
    ),
  },
  { key: 'trip', label: 'Trip', cell: (b) => b.trip_name },
  { key: 'returned', label: 'Back on', cell: (b) => formatShortDate(b.returned) },
  {
    key: 'fields',
    label: 'What goes',
    cell: (b) => <Text size="sm">{b.fields.map((f) => FIELD_LABELS[f]).join(', ')}</Text>,
  },
];

/**
 * /admin/retention: the dry run of the nightly erasure — which travellers' passport,
 * medical, insurance-number and next-of-kin details the next run erases, and how many are held back.
 */
export default function RetentionPage() {
  const may = useCan();
  const preview = useQuery({
    queryKey: ['retention', 'preview'],
    queryFn: () => api<RetentionPreview>('/api/retention/preview'),
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Erasure after return</Title>
          <Text c="dimmed" size="sm" maw={780}>
            Each night Tripdesk erases the passport, medical, insurance-number and next-of-kin details of travellers
            whose trip came back long enough ago. The booking, its money and its history stay. A booking can be kept
            from erasure until a day (a claim, an incident) from its page.
          </Text>
        </div>
        <Anchor component={Link} to={path('admin-jobs')} size="sm">
          Jobs
        </Anchor>
      </Group>
      <RecordLoader
        query={preview}
        failed="What the next run will erase could not be read. Please refresh the page and try again."
      >
        {(p) => (
          <>
            <Paper withBorder radius="md" p="sm" bg="blue.0" role="status">
              <Text fw={600}>
                The next run erases the details of {p.total} {p.total === 1 ? 'booking' : 'bookings'}: trips back before{' '}
                {formatShortDate(p.returned_before)} ({p.retention_days} days).
                {p.held > 0 && ` ${p.held} ${p.held === 1 ? 'is' : 'are'} kept back by a "keep until" day.`}
              </Text>
            </Paper>
            <DataTable
              columns={columnsFor(may('bookings', 'read'))}
              data={p.bookings}
              rowKey={(b) => b.booking_id}
              empty="Nothing is due for erasure."
              caption={
                p.total > p.bookings.length
                  ? `The first ${p.bookings.length} of ${p.total}, the longest back first`
                  : 'Due for erasure, the longest back first'
              }
            />
          </>
        )}
      </RecordLoader>
    </Stack>
  );
}
