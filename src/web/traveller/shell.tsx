import { Alert, Anchor, Badge, Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { api, ApiError } from '../lib/api.ts';
import { readBootstrap } from '../lib/bootstrap.ts';

// The frame of a traveller's own pages (/my), shared by the booking pages and the group leader's.

const END_USER = 3;

export function Shell({ children, signedIn = false }: { children: ReactNode; signedIn?: boolean }) {
  const [leaving, setLeaving] = useState(false);
  const signOut = async () => {
    setLeaving(true);
    try {
      await api('/logout', { method: 'POST' });
    } finally {
      window.location.assign('/my/sign-in');
    }
  };
  return (
    <Container component="main" size={560} px="md" py="lg">
      <Stack gap="lg">
        {signedIn && (
          <Group justify="space-between" wrap="nowrap">
            <Anchor href="/my" fw={600}>
              My bookings
            </Anchor>
            <Button variant="default" onClick={() => void signOut()} loading={leaving}>
              Sign out
            </Button>
          </Group>
        )}
        {children}
      </Stack>
    </Container>
  );
}

export function Loading() {
  return (
    <Stack align="center" py="xl" role="status" aria-live="polite">
      <Loader aria-hidden />
      <Text>Loading…</Text>
    </Stack>
  );
}

const STATUS_COLOURS = { provisional: 'blue', confirmed: 'green', cancelled: 'gray' } as const;

export function StatusBadge({ status }: { status: keyof typeof STATUS_COLOURS }) {
  return (
    <Badge
      color={STATUS_COLOURS[status]}

      variant="light"
      size="lg"
      style={{ flexShrink: 0 }}
    >
      {status[0]!.toUpperCase() + status.slice(1)}
    </Badge>
  );
}

/** Loads one of the traveller's API answers; a signed-out visitor goes to the sign-in page. */
export function useMine<T>(url: string): { data: T | null; error: string | null; setData: (data: T) => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<T>(url)
      .then(setData)
      .catch((e: unknown) => {
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) window.location.assign('/my/sign-in');
        else
          setError(
            e instanceof ApiError && e.status === 404
              ? 'This page was not found.'
              : 'This page could not be loaded. Please try again.',
          );
      });
  }, [url]);
  return { data, error, setData };
}

export function signedInAsTraveller(): boolean {
  const user = readBootstrap().user;
  if (user && user.user_role_id === END_USER) return true;
  window.location.replace('/my/sign-in');
  return false;
}

/** What a page shows before its answer: why it could not be loaded, or that it is loading. */
export function Pending({ loaded, error }: { loaded: boolean; error: string | null }) {
  if (error)
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  return loaded ? null : <Loading />;
}
