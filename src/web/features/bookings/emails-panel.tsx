import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SentEmail } from '../../../contract/audit.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { api } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { bookingKeys } from './api/bookings.ts';
import { invoiceChangeKeys } from './api/invoices.ts';
import { BookingPanel } from './booking-panel.tsx';

const OUTCOME: Record<SentEmail['outcome'], { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'green' },
  written_to_eml: { label: 'Saved as .eml', color: 'gray' },
  refused: { label: 'Refused', color: 'red' },
};

/** What Tripdesk emailed this traveller, from the history: the full text on demand, and Resend (bookings change). */
export function EmailsPanel({ bookingId }: { bookingId: number }) {
  const changes = useCan()('bookings');
  const queryClient = useQueryClient();
  const emails = useQuery({
    queryKey: [...bookingKeys.one(bookingId), 'emails'],
    queryFn: () => api<SentEmail[]>(`/api/bookings/${bookingId}/emails`),
  });
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // a resend marks the invoice sent, and adds to the emails and the history (all under the booking)
  const changed = invoiceChangeKeys(bookingId);
  const resending = useFormMutation({
    mutationFn: (email: SentEmail) =>
      api<{ message: string }>(`/api/bookings/${bookingId}/emails/${email.id}/resend`, { method: 'POST' }),
    invalidate: changed,
    fallback: 'Sorry, the email could not be sent. Please try again.',
    onSuccess: (res) => setNotice(res.message),
  });
  const resend = async (email: SentEmail) => {
    setBusy(email.id);
    setNotice(null);
    // a refused email is in the history too
    if (!(await resending.submit(email)))
      changed.forEach((queryKey) => void queryClient.invalidateQueries({ queryKey }));
    setBusy(null);
  };

  const columns: Array<Column<SentEmail>> = [
    {
      key: 'sent',
      label: 'Sent',
      cell: (e) => (
        <>
          <Text size="sm">{formatDateTime(e.at)}</Text>
          <Text size="xs" c="dimmed">
            by {e.sent_by}
          </Text>
        </>
      ),
      cellProps: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    { key: 'to', label: 'To', cell: (e) => e.to },
    {
      key: 'subject',
      label: 'Subject',
      cell: (e) => (
        <>
          {e.subject}
          {e.attachments.length > 0 && (
            <Text size="xs" c="dimmed">
              Attached: {e.attachments.join(', ')}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'outcome',
      label: 'Outcome',
      cell: (e) => (
        <Badge variant="light" color={OUTCOME[e.outcome].color}>
          {OUTCOME[e.outcome].label}
        </Badge>
      ),
    },
    {
      key: 'action',
      label: 'Action',
      cell: (e) => (
        <Group gap="xs" wrap="nowrap" w="max-content">
          <Button
            size="xs"
            variant="default"
            aria-expanded={open === e.id}
            onClick={() => setOpen(open === e.id ? null : e.id)}
          >
            {open === e.id ? 'Hide' : 'Read'}
          </Button>
          {changes && e.about.type === 'invoice' && (
            <Button size="xs" variant="light" loading={busy === e.id} onClick={() => void resend(e)}>
              Resend
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <BookingPanel title="Emails" notice={notice} onDismiss={() => setNotice(null)} failure={resending.failure}>
      <DataTable
        columns={columns}
        query={emails}
        failed="The emails could not be loaded. Please refresh the page and try again."
        rowKey={(e) => e.id}
        empty="Nothing has been emailed about this booking yet."
        tableProps={{ verticalSpacing: 'xs' }}
        rowDetail={(e) =>
          open === e.id && (
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {e.message_id ? `Message id ${e.message_id}` : 'No message id'}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} ff="monospace" bg="gray.0" p="xs">
                {e.text}
              </Text>
            </Stack>
          )
        }
      />
    </BookingPanel>
  );
}
