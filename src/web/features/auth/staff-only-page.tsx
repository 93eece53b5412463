import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { path, routes } from '../../../contract/paths.ts';
import { isCharityPartner, useCurrentUser } from '../../lib/session.tsx';

/** What a Charity or End User sees on a back-office screen; a Charity user's home is their charity portal. */
export default function StaffOnlyPage() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  if (isCharityPartner(user) && pathname === routes.home) return <Navigate to={path('charity-portal')} replace />;
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
          {isCharityPartner(user) && (
            <Button component={Link} to={path('charity-portal')}>
              Go to your fundraisers
            </Button>
          )}
          <Button component={Link} to={path('developer')} variant={isCharityPartner(user) ? 'default' : 'filled'}>
            Go to the developer area
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
