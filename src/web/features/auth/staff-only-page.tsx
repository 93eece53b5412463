import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import { useCurrentUser } from '../../lib/session.tsx';

/** What a Charity or End User sees on a back-office screen. */
export default function StaffOnlyPage() {
  const user = useCurrentUser();
  return (
    <Paper withBorder p="xl" radius="md" maw={640}>
      <Stack>
        <Title order={1} size="h2">
          This back office is for staff
        </Title>
        <Text>
          You are signed in as {user?.first_name} {user?.last_name} ({user?.role.display_name}). The Tripdesk back
          office is for the operator&apos;s staff, so its screens are not open to your account.
        </Text>
        <Text>
          In the developer area you can manage your own OAuth clients and personal access tokens, to reach your data
          through the API.
        </Text>
        <Group>
          <Button component={Link} to={path('developer')}>
            Go to the developer area
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
