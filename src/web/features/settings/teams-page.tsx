import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { LEVEL_LABELS, PERMISSION_LABELS, PERMISSIONS } from '../../../contract/team-constants.ts';
import type { Team } from '../../../contract/teams.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ToneBadge } from '../../components/status-badge.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { TEAMS_KEY, useTeams } from '../../components/teams.ts';
import { api } from '../../lib/api.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { SettingsNav } from './settings-nav.tsx';

const TeamDialog = lazyComponent(() => import('./team-dialog.tsx').then((m) => m.TeamDialog));

const TONE = { none: 'neutral', read: 'info', change: 'good' } as const;

/**
 * /settings/teams (issue 36): each team with what it may do in each area and who is in it. People
 * change adds, edits and deletes them; a team with members cannot be deleted, Full access never.
 */
export default function TeamsPage() {
  const teams = useTeams();
  const may = useCan();
  const canChange = may('people');
  const [editing, setEditing] = useState<Team | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const removing = useFormMutation({
    mutationFn: (team: Team) => api<void>(`/api/teams/${team.id}`, { method: 'DELETE' }),
    invalidate: [TEAMS_KEY],
    fallback: 'Sorry, the team could not be deleted. Please try again.',
    onSuccess: (_, team) => {
      setDeleting(null);
      setNotice(`The team ${team.name} has been deleted.`);
    },
  });

  return (
    <Stack>
      <SettingsNav />
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Teams</Title>
          <Text size="sm" c="dimmed">
            What each member of staff may see and do. Every Administrator is in one team; set it on their user page.
          </Text>
        </div>
        {canChange && <Button onClick={() => setEditing('new')}>Add Team</Button>}
      </Group>
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {(removing.failure || teams.isError) && (
        <Alert color="red" role="alert">
          {removing.failure ?? 'The teams could not be loaded. Please refresh the page and try again.'}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {teams.data?.map((team) => (
          <Card key={team.id} withBorder radius="md" component="section" aria-label={team.name}>
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap">
                <Title order={2} size="h4">
                  {team.name}
                </Title>
                {canChange && (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setEditing(team)}
                      aria-label={`Edit ${team.name}`}
                    >
                      Edit
                    </Button>
                    {!team.full_access && (
                      <Button
                        size="xs"
                        variant="default"
                        c="red.9"
                        onClick={() => {
                          removing.clearFailure();
                          setDeleting(team);
                        }}
                        aria-label={`Delete ${team.name}`}
                      >
                        Delete
                      </Button>
                    )}
                  </Group>
                )}
              </Group>
              {team.full_access && (
                <Text size="sm" c="dimmed">
                  Everything, always. It keeps at least one member.
                </Text>
              )}
              <Stack component="dl" gap={4} m={0} aria-label={`What ${team.name} may do`}>
                {PERMISSIONS.map((p) => (
                  <Group key={p} justify="space-between" wrap="nowrap" gap="xs">
                    <Text component="dt" size="sm" fw={500}>
                      {PERMISSION_LABELS[p]}
                    </Text>
                    <Text component="dd" m={0} style={{ flexShrink: 0 }}>
                      <ToneBadge tone={TONE[team.permissions[p]]}>{LEVEL_LABELS[team.permissions[p]]}</ToneBadge>
                    </Text>
                  </Group>
                ))}
              </Stack>
              <Text size="sm">
                <Text span fw={600}>
                  Members:{' '}
                </Text>
                {team.members.length
                  ? team.members.map((m) => `${m.first_name} ${m.last_name}`.trim()).join(', ')
                  : 'No one yet'}
              </Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      {editing && (
        <TeamDialog
          team={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            setNotice(message);
          }}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete Team"
        message={
          deleting?.members.length
            ? `${deleting.name} has members: move them to another team first.`
            : `Are you sure you want to delete the team ${deleting?.name ?? ''}?`
        }
        confirmLabel="Yes, Delete the Team"
        cancelLabel="No, Cancel"
        busy={removing.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void removing.submit(deleting)}
      />
    </Stack>
  );
}
