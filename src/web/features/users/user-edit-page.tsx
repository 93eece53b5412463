import { Alert, Grid, Group, NativeSelect, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { MIN_PASSWORD_LENGTH, ROLES } from '../../../contract/constants.ts';
import { path } from '../../../contract/paths.ts';
import { reachesAll } from '../../../contract/permissions.ts';
import { MANAGE_ABOVE } from '../../../contract/team-constants.ts';
import type { updateUserSchema, User } from '../../../contract/users.ts';
import { DestructiveButton, FormPage, RecordLoader } from '../../components/form-frame.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan, useCurrentUser } from '../../lib/session.tsx';
import { useTeams } from '../../components/teams.ts';
import { deleteUser, updateUser, useCharityChoices, userKeys, useUser } from './api/users.ts';
import { UserFields } from './user-fields.tsx';

type FormValues = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  user_role_id: string;
  charity_id: string;
  team_id: string;
  password: string;
  confirm_password: string;
};

const HALF = { base: 12, sm: 6 };
const FAILED = 'Sorry, an error occurred. Please refresh the page and try again.';

export default function UserEditPage() {
  const user = useUser(Number(useParams().id));
  return (
    <RecordLoader query={user} failed="The user could not be loaded. Please refresh the page and try again.">
      {(u) => <UserForm user={u} />}
    </RecordLoader>
  );
}

function UserForm({ user }: { user: User }) {
  const me = useCurrentUser();
  const isMe = me?.id === user.id;
  const may = useCan();
  const navigate = useNavigate();
  const form = useForm<FormValues, unknown, z.output<typeof updateUserSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/users.ts').then((m) => m.updateUserSchema)) as never,
    defaultValues: {
      id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      user_role_id: String(user.user_role_id),
      charity_id: user.charity ? String(user.charity.id) : '',
      team_id: user.team ? String(user.team.id) : '',
      password: '',
      confirm_password: '',
    },
  });
  const errors = form.formState.errors;
  // a Charity user speaks for one charity: its portal shows that charity's fundraisers only
  const isCharity = useWatch({ control: form.control, name: 'user_role_id' }) === String(ROLES.charity);
  const charities = useCharityChoices(isCharity);
  // an Administrator's team: what they may do in Tripdesk
  const isAdministrator = useWatch({ control: form.control, name: 'user_role_id' }) === String(ROLES.administrator);
  const teams = useTeams(isAdministrator);
  // a member whose team may do more than the viewer's is theirs to read, not to change (the server's rule too)
  const theirTeam = user.team ? teams.data?.find((t) => t.id === user.team!.id) : undefined;
  const above = theirTeam !== undefined && !reachesAll(me?.permissions, theirTeam.permissions);
  const canChange = may('people') && !above;
  const teamOptions = [
    ...(user.team ? [user.team] : []),
    ...(teams.data ?? []).filter((t) => t.id !== user.team?.id),
  ].map((t) => ({ value: String(t.id), label: t.name }));
  // the linked charity is an option from the start, so the select shows it before the list arrives
  const charityOptions = [
    ...(user.charity ? [user.charity] : []),
    ...(charities.data ?? []).filter((c) => c.id !== user.charity?.id),
  ]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => ({ value: String(c.id), label: c.name }));
  // both go back to the list with their flash
  const done = { invalidate: [userKeys.all], fallback: FAILED, onSuccess: () => navigate(path('user-list')) };
  const saving = useFormMutation({
    ...done,
    mutationFn: updateUser,
    setError: form.setError,
    flash: () => ({ text: 'User record updated', on: 'push' }),
  });
  const removing = useFormMutation({
    ...done,
    mutationFn: deleteUser,
    flash: () => ({ text: 'User record deleted', on: 'push' }),
  });
  const save = form.handleSubmit(() => {
    removing.clearFailure();
    return saving.submit(form.getValues());
  });

  return (
    <FormPage
      title={`Edit User: ${user.first_name} ${user.last_name}`}
      label="User details"
      failure={saving.failure ?? removing.failure}
      onSubmit={save}
      readOnly={!canChange}
      submitLabel="Save User"
      submitting={form.formState.isSubmitting}
      back={{ to: path('user-list'), label: 'Back to User List' }}
      maw={760}
      above={
        above && may('people') ? (
          <Text size="sm" c="dimmed" role="note">
            {MANAGE_ABOVE}
          </Text>
        ) : undefined
      }
      below={user.user_role_id === ROLES.endUser ? <TravellerSessions user={user} /> : undefined}
      destructive={
        isMe || !canChange
          ? undefined
          : {
              label: 'Delete User',
              message: 'Are you sure you want to delete this user? Their bookings and payments are kept.',
              confirmLabel: 'Yes, Delete the User',
              cancelLabel: 'No, Cancel',
              onConfirm: () => {
                saving.clearFailure();
                return removing.submit(user.id);
              },
            }
      }
    >
      <Grid>
        <UserFields
          layout={[
            ['first_name', HALF],
            ['last_name', HALF],
            ['email', HALF],
            ['user_role_id', HALF],
          ]}
          register={form.register}
          errors={errors}
          fixedRole={isMe ? user.role.display_name : undefined}
          disabled={!canChange}
        />
        {isCharity && (
          <Grid.Col span={HALF}>
            <NativeSelect
              label="Charity"
              description="The charity whose fundraisers this user follows"
              data={[{ value: '', label: 'None' }, ...charityOptions]}
              disabled={!canChange}
              error={
                errors.charity_id?.message ?? (charities.isError ? 'The charities could not be loaded.' : undefined)
              }
              {...form.register('charity_id')}
            />
          </Grid.Col>
        )}
        {isAdministrator && (
          <Grid.Col span={HALF}>
            <NativeSelect
              label="Team"
              description={
                isMe
                  ? 'You cannot change your own team'
                  : 'What this member may see and do; new Administrators join Full access'
              }
              data={
                user.team
                  ? teamOptions
                  : [
                      { value: '', label: 'Full access (the default)' },
                      ...teamOptions.filter((o) => !teams.data?.find((t) => String(t.id) === o.value)?.full_access),
                    ]
              }
              disabled={isMe || !canChange}
              error={errors.team_id?.message ?? (teams.isError ? 'The teams could not be loaded.' : undefined)}
              {...form.register('team_id')}
            />
          </Grid.Col>
        )}
        {canChange && (
          <>
            <Grid.Col span={HALF}>
              <PasswordInput
                label="New Password"
                autoComplete="new-password"
                description={`Leave blank to keep the current password; at least ${MIN_PASSWORD_LENGTH} characters`}
                error={errors.password?.message}
                {...form.register('password')}
              />
            </Grid.Col>
            <Grid.Col span={HALF}>
              <PasswordInput
                label="Confirm Password"
                autoComplete="new-password"
                description="Type the new password again"
                error={errors.confirm_password?.message}
                {...form.register('confirm_password')}
              />
            </Grid.Col>
          </>
        )}
        <Grid.Col span={HALF}>
          <TextInput
            label="Stripe Customer ID"
            readOnly
            value={user.stripe_customer_id ?? 'None'}
            description="Set by the card payment provider"
          />
        </Grid.Col>
      </Grid>
    </FormPage>
  );
}

/** A traveller's sessions on their own pages, ended by staff (a lost phone, a mailbox someone else reads). */
function TravellerSessions({ user }: { user: User }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const end = async () => {
    setOutcome(null);
    try {
      const { message } = await api<{ message: string }>(`/api/users/${user.id}/end-sessions`, { method: 'POST' });
      setOutcome({ ok: true, text: message });
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof ApiError ? error.message : FAILED });
    }
  };
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="traveller-sessions">
      <Stack gap="sm">
        <Title order={2} size="h4" id="traveller-sessions">
          Traveller’s pages
        </Title>
        <Text size="sm">
          Signs {user.first_name} out of their own pages on every device, and stops the links already emailed to them
          (sign-in links, and the links in chasers, reminders and invoices) from signing anyone in. They can ask for a
          new link with their email address.
        </Text>
        {outcome && (
          <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.text}
          </Alert>
        )}
        <Group>
          <DestructiveButton
            label="End sessions"
            title="End the traveller’s sessions?"
            message={`Sign ${user.first_name} ${user.last_name} out everywhere and stop every link already emailed to them?`}
            confirmLabel="Yes, End Sessions"
            cancelLabel="No, Cancel"
            onConfirm={end}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
