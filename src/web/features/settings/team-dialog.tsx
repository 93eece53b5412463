import { Grid, NativeSelect, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  LEVEL_LABELS,
  LEVELS,
  PERMISSION_HINTS,
  PERMISSION_LABELS,
  PERMISSIONS,
  type TeamPermissions,
} from '../../../contract/team-constants.ts';
import type { Team, teamInputSchema } from '../../../contract/teams.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { TEAMS_KEY } from '../../components/teams.ts';
import { api } from '../../lib/api.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';

type Values = { name: string; permissions: TeamPermissions };
type Body = z.output<typeof teamInputSchema>;

const NONE: TeamPermissions = {
  bookings: 'read',
  trips: 'read',
  finance: 'none',
  charities: 'none',
  people: 'none',
  settings: 'none',
  traveller_data: 'none',
};

/** Adds a team (team: null) or changes one; Full access keeps every permission, so only its name is offered. */
export function TeamDialog({
  team,
  onClose,
  onDone,
}: {
  team: Team | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values, unknown, Body>({
    resolver: lazyZodResolver(() => import('../../../contract/teams.ts').then((m) => m.teamInputSchema)) as never,
    defaultValues: { name: team?.name ?? '', permissions: team?.permissions ?? NONE },
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: Body) =>
      team
        ? api<Team>(`/api/teams/${team.id}`, { method: 'PUT', body })
        : api<Team>('/api/teams', { method: 'POST', body }),
    invalidate: [TEAMS_KEY, ['users']],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the team could not be saved. Please try again.',
    onSuccess: (saved) =>
      onDone(team ? `The team ${saved.name} has been saved.` : `The team ${saved.name} has been added.`),
  });
  const fixed = team?.full_access ?? false;

  return (
    <FormDialog
      title={team ? `Edit Team: ${team.name}` : 'Add Team'}
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit(v))}
      failure={saving.failure ?? errors.permissions?.message ?? errors.permissions?.root?.message}
      submitLabel={team ? 'Save Team' : 'Add Team'}
      submitting={saving.isPending}
      size="lg"
      above={
        <Text size="sm" c="dimmed">
          {fixed
            ? 'Full access may do everything, always: only its name can change.'
            : 'Each area: none (not shown), read (seen, not changed) or change. A change counts from each member’s next click.'}
        </Text>
      }
    >
      <TextInput
        label="Name"
        required
        maxLength={100}
        error={errors.name?.message}
        data-autofocus
        {...form.register('name')}
      />
      <Grid>
        {PERMISSIONS.map((p) => (
          <Grid.Col key={p} span={{ base: 12, sm: 6 }}>
            <NativeSelect
              label={PERMISSION_LABELS[p]}
              description={PERMISSION_HINTS[p]}
              data={LEVELS.map((l) => ({ value: l, label: LEVEL_LABELS[l] }))}
              disabled={fixed}
              error={errors.permissions?.[p]?.message}
              {...form.register(`permissions.${p}`)}
            />
          </Grid.Col>
        ))}
      </Grid>
    </FormDialog>
  );
}
