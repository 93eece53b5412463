import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { path, routes } from '../../../contract/paths.ts';
import { type Permission, permissionMessage } from '../../../contract/team-constants.ts';
import { isCharityPartner, useCurrentUser } from '../../lib/session.tsx';

/**
 * What a Charity or End User sees on a back-office screen; a Charity user's home is their charity
 * portal. With `permission`: a member of staff whose team may not read that screen (issue 36).
 */
export default function StaffOnlyPage({ permission }: { permission?: Permission }) {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  if (permission) return <NotForYourTeam permission={permission} team={user?.team?.name} />;
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

function NotForYourTeam({ permission, team }: { permission: Permission; team: string | undefined }) {
  return (
    <Paper withBorder p="xl" radius="md" maw={640}>
      <Stack>
        <Title order={1} size="h2">
          Not open to your team
        </Title>
        <Text>{permissionMessage(permission, 'read')}</Text>
        <Text>
          You are in the team {team ?? 'with no name'}. Someone who manages people in Tripdesk can change what your team
          may see, or move you to another team.
        </Text>
        <Group>
          <Button component={Link} to={path('home')}>
            Go to the home page
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
