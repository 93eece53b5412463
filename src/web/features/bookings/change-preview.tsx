import { Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../../lib/api.ts';
import { bookingKeys } from './api/bookings.ts';

/** One figure of a change's preview: a small label over its amount. */
export function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500}>{value}</Text>
    </div>
  );
}

/**
 * The server's preview of a change to a booking (cancel, transfer, move): the same function that
 * then does it, asked again whenever the fee is waived or the choice changes.
 */
export function useChangePreview<T>(
  bookingId: number,
  change: 'cancel' | 'transfer' | 'move' | 'funding',
  query: Record<string, string>,
  enabled = true,
) {
  return useQuery({
    queryKey: [...bookingKeys.one(bookingId), `${change}-preview`, query],
    queryFn: () => api<T>(`/api/bookings/${bookingId}/${change}/preview`, { query }),
    enabled,
  });
}

/** Above a change's form: its preview, a spinner while it is worked out, or why it could not be. */
export function PreviewFrame<T>({
  preview,
  what,
  children,
}: {
  preview: { data: T | undefined; isError: boolean };
  /** "cancelling", "the transfer" … as in "What cancelling would do could not be worked out." */
  what: string;
  children: (p: T) => ReactNode;
}) {
  if (preview.isError)
    return (
      <Text c="red" size="sm" role="alert">
        What {what} would do could not be worked out. Please close this and try again.
      </Text>
    );
  if (preview.data === undefined) return <Loader size="sm" aria-label="Working out the fee" />;
  return <>{children(preview.data)}</>;
}
