import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { SentEmail } from '../../../contract/audit.ts';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { bookingKeys } from './api/bookings.ts';
import { invoiceKeys } from './api/invoices.ts';

const OUTCOME: Record<SentEmail['outcome'], { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'green' },
  written_to_eml: { label: 'Saved as .eml', color: 'gray' },
  refused: { label: 'Refused', color: 'red' },
};

/** What Tripdesk emailed this traveller, from the history: the full text on demand, and Resend. */
export function EmailsPanel({ bookingId }: { bookingId: number }) {
  const queryClient = useQueryClient();
  const key = [...bookingKeys.one(bookingId), 'emails'];
  const emails = useQuery({ queryKey: key, queryFn: () => api<SentEmail[]>(`/api/bookings/${bookingId}/emails`) });
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const resend = async (email: SentEmail) => {
    setBusy(email.id);
    setNotice(null);
    try {
      const res = await api<{ message: string }>(`/api/bookings/${bookingId}/emails/${email.id}/resend`, { method: 'POST' });
      setNotice({ ok: true, text: res.message });
    } catch (error) {
      setNotice({ ok: false, text: error instanceof ApiError ? error.message : 'Sorry, the email could not be sent. Please try again.' });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: bookingKeys.one(bookingId) });
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.forBooking(bookingId) });
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="emails-heading">
      <Title order={2} size="h4" id="emails-heading" mb="sm">
        Emails
      </Title>
      {notice && (
        <Alert color={notice.ok ? 'blue' : 'red'} role={notice.ok ? 'status' : 'alert'} mb="sm" withCloseButton onClose={() => setNotice(null)} closeButtonLabel="Dismiss">
          {notice.text}
        </Alert>
      )}
      {emails.isPending ? (
        <Text size="sm" c="dimmed">Loading the emails…</Text>
      ) : emails.isError ? (
        <Alert color="red" role="alert">
          The emails could not be loaded. Please refresh the page and try again.
        </Alert>
      ) : emails.data.length === 0 ? (
        <Text size="sm" c="dimmed">Nothing has been emailed about this booking yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sent</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {emails.data.map((e) => (
                <Fragment key={e.id}>
                  <Table.Tr>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{formatDateTime(e.at)}</Text>
                      <Text size="xs" c="dimmed">
                        by {e.sent_by}
                      </Text>
                    </Table.Td>
                    <Table.Td>{e.to}</Table.Td>
                    <Table.Td>
                      {e.subject}
                      {e.attachments.length > 0 && (
                        <Text size="xs" c="dimmed">
                          Attached: {e.attachments.join(', ')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={OUTCOME[e.outcome].color}>
                        {OUTCOME[e.outcome].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                          {open === e.id ? 'Hide' : 'Read'}
                        </Button>
                        {e.about.type === 'invoice' && (
                          <Button size="xs" variant="light" loading={busy === e.id} onClick={() => void resend(e)}>
                            Resend
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open === e.id && (
                    <Table.Tr>
                      <Table.Td colSpan={5}>
                        <Stack gap={4}>
                          <Text size="xs" c="dimmed">
                            {e.message_id ? `Message id ${e.message_id}` : 'No message id'}
                          </Text>
                          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} ff="monospace" bg="gray.0" p="xs">
                            {e.text}
                          </Text>
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
