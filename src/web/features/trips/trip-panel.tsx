import { Paper, Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { ServerAlert } from '../../components/form-frame.tsx';

/** A panel of the trip edit page: its heading, the alert for what went wrong, its table and form. */
export function TripPanel({
  title,
  failure,
  children,
}: {
  title: string;
  failure: string | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <ServerAlert failure={failure} variant="light" />
        {children}
      </Stack>
    </Paper>
  );
}

/** The row whose values are in the panel's form, marked so the eye finds it. */
export const editingRow = (editing: boolean) =>
  editing ? { bg: 'var(--mantine-color-blue-light)', 'aria-current': 'true' } : {};
