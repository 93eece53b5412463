import { Alert, Anchor, Button, Grid, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { path } from '../../../contract/paths.ts';
import type { createUserSchema, User } from '../../../contract/users.ts';
import { DEFAULT_ROLE, userCreatedMessage } from '../../../contract/constants.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { formatShortDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { createUser, userKeys, useUsers } from './api/users.ts';
import { UserFields } from './user-fields.tsx';

type AddForm = { email: string; first_name: string; last_name: string; user_role_id: string };
const emptyForm: AddForm = { email: '', first_name: '', last_name: '', user_role_id: String(DEFAULT_ROLE) };

/**
 * The columns: a team with people change updates a user, one with read views them; View Bookings
 * only for a team that may read bookings.
 */
const columnsFor = (canChange: boolean, canOpenBookings: boolean): Array<Column<User>> => [
  { key: 'name', label: 'Name', cell: (u) => `${u.first_name} ${u.last_name}`, cellProps: () => ({ fw: 500 }) },
  { key: 'email', label: 'Email', cell: (u) => u.email },
  { key: 'role', label: 'Role', cell: (u) => u.role.display_name },
  // an Administrator's team: what they may do (issue 36); other roles have none
  { key: 'team', label: 'Team', cell: (u) => u.team?.name ?? '' },
  { key: 'created', label: 'Created', cell: (u) => formatShortDate(u.created_at) },
  { key: 'bookings', label: 'Bookings', align: 'right', cell: (u) => u.bookings_count },
  {
    key: 'actions',
    label: 'Actions',
    cell: (u) => (
      <Group gap="sm" wrap="nowrap">
        <Anchor
          component={Link}
          to={path('user-edit', { id: u.id })}
          aria-label={`${canChange ? 'Update' : 'View'} User ${u.first_name} ${u.last_name}`}
        >
          {canChange ? 'Update User' : 'View User'}
        </Anchor>
        {canOpenBookings && (
          <Anchor
            component={Link}
            to={`${path('booking-list')}?user_id=${u.id}`}
            aria-label={`View Bookings of ${u.first_name} ${u.last_name}`}
          >
            View Bookings
          </Anchor>
        )}
      </Group>
    ),
  },
];

/** /users: the users, and the Add user form for a team with people change. */
export default function UserListPage() {
  const may = useCan();
  const canChange = may('people');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const users = useUsers(page, debounced);
  const form = useForm<AddForm, unknown, z.output<typeof createUserSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/users.ts').then((m) => m.createUserSchema)) as never,
    defaultValues: emptyForm,
  });
  const errors = form.formState.errors;
  const creating = useFormMutation({
    mutationFn: createUser,
    invalidate: [userKeys.lists],
    setError: form.setError,
    flash: (created) => ({ text: userCreatedMessage(created.password), on: 'show' }),
    fallback: 'Sorry, an unknown error occurred. Please refresh the page and try again.',
    onSuccess: () => {
      form.reset(emptyForm);
      setPage(1);
    },
  });
  const add = form.handleSubmit((values) => creating.submit(values));

  return (
    <Stack>
      <Title order={1}>Users</Title>

      {canChange && (
        <Paper
          withBorder
          p="md"
          radius="md"
          component="form"
          onSubmit={add}
          noValidate
          aria-labelledby="add-user-heading"
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id="add-user-heading">
              Add user
            </Title>
            {/* (not form-frame's ServerAlert: its chunk, with FormPage and the confirm dialog, would put this first visit over 200 KB) */}
            {creating.failure && (
              <Alert color="red" role="alert">
                {creating.failure}
              </Alert>
            )}
            <Grid align="flex-start">
              <UserFields
                layout={[
                  ['email', { base: 12, sm: 6, lg: 3 }],
                  ['first_name', { base: 12, sm: 6, lg: 2.5 }],
                  ['last_name', { base: 12, sm: 6, lg: 2.5 }],
                  ['user_role_id', { base: 12, sm: 6, lg: 2 }],
                ]}
                register={form.register}
                errors={errors}
              />
              <Grid.Col span={{ base: 12, lg: 2 }}>
                <Button type="submit" mt={{ lg: 25 }} fullWidth loading={form.formState.isSubmitting}>
                  Add User
                </Button>
              </Grid.Col>
            </Grid>
            <Text size="xs" c="dimmed">
              Tripdesk makes a strong password for the new account and shows it to you once.
            </Text>
          </Stack>
        </Paper>
      )}

      <TextInput
        label="Search"
        placeholder="Name or email"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={420}
      />

      <DataTable
        columns={columnsFor(canChange, may('bookings', 'read'))}
        query={users}
        rowKey={(u) => u.id}
        failed="The users could not be loaded. Please refresh the page and try again."
        empty={debounced ? 'No users match this search.' : 'There are no users yet.'}
        page={page}
        onPage={setPage}
        noun="users"
      />
    </Stack>
  );
}
