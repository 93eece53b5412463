import { Alert, Anchor, Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import { useCan } from '../../lib/session.tsx';
import { readinessKey } from './api/readiness.ts';

/** The photo page a traveller sent, to look at beside the details it must match; "Checked" ticks it off the board. */
export function PassportPhotoModal({
  tripId,
  bookingId,
  traveller,
  opened: open,
  onClose,
}: {
  tripId: number;
  bookingId: number;
  traveller: string;
  opened: boolean;
  onClose: () => void;
}) {
  const may = useCan();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isPdf, setIsPdf] = useState(false);
  const queryClient = useQueryClient();
  const url = `/api/bookings/${bookingId}/passport-image`;
  const checked = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(`${url}/checked`, { method: 'POST' });
      await queryClient.invalidateQueries({ queryKey: readinessKey(tripId) });
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'It could not be marked checked. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Modal
        opened={open}
        onClose={() => onClose()}
        title={`Passport photo: ${traveller}`}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            Sent by the traveller from their own pages. Check that it is the photo page, readable, and that the name,
            number and dates match their booking.
          </Text>
          {isPdf ? (
            <Anchor href={url} target="_blank">
              Open the scan (PDF)
            </Anchor>
          ) : (
            <Image
              src={url}
              alt={`The passport photo page sent by ${traveller}`}
              fit="contain"
              mah={420}
              onError={() => setIsPdf(true)}
            />
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="space-between">
            <Anchor href={`/bookings/${bookingId}`} size="sm">
              Open the booking
            </Anchor>
            <Group>
              <Button variant="default" onClick={() => onClose()}>
                Later
              </Button>
              {may('bookings') && may('traveller_data') && (
                <Button onClick={() => void checked()} loading={busy}>
                  Checked
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
