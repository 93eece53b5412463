import { Alert, Group, Paper, Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { ServerAlert } from '../../components/form-frame.tsx';

type Props = {
  title: string;
  /** the section's id (a link or a scroll target) */
  id?: string;
  /** buttons beside the heading */
  actions?: ReactNode;
  /** what stands above the messages (a standing warning) */
  intro?: ReactNode;
  /** what the last change did, until dismissed or the next one */
  notice?: string | null;
  onDismiss?: () => void;
  /** what went wrong with the last change */
  failure?: string | null;
  children: ReactNode;
};

/** A panel of the booking page: its heading and buttons, the last change's message, its table. */
export function BookingPanel({ title, id, actions, intro, notice, onDismiss, failure, children }: Props) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" id={id} component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {actions}
      </Group>
      <Stack gap="sm">
        {intro}
        {notice && (
          <Alert color="blue" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={onDismiss}>
            {notice}
          </Alert>
        )}
        <ServerAlert failure={failure} variant="light" />
        {children}
      </Stack>
    </Paper>
  );
}
