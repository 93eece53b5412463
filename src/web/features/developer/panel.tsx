import { Alert, Anchor, Group, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = {
  id: string;
  title: string;
  action?: string;
  onAction?: () => void;
  failure?: string | null;
  children: ReactNode;
};

/**
 * A developer-area panel: its header, with the spec's create link on the right when it has one,
 * and what went wrong with its last action.
 */
export function Panel({ id, title, action, onAction, failure, children }: Props) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {action && (
          <Anchor component="button" type="button" fw={500} onClick={onAction}>
            {action}
          </Anchor>
        )}
      </Group>
      {failure && (
        <Alert color="red" role="alert" mb="md">
          {failure}
        </Alert>
      )}
      {children}
    </Paper>
  );
}
