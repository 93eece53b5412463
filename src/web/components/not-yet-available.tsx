import { Paper, Stack, Text, Title } from '@mantine/core';

/** A screen in the navigation that has not shipped yet: say so plainly rather than show a 404. */
export function NotYetAvailable({ title }: { title: string }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg" radius="md">
        <Text fw={500}>This screen is not available yet.</Text>
        <Text c="dimmed" size="sm">
          It is part of a coming release of Tripdesk. The data behind it is already kept: nothing is lost in the
          meantime.
        </Text>
      </Paper>
    </Stack>
  );
}
