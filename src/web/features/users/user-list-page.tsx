import { Alert, Anchor, Button, Grid, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { path } from '../../../contract/paths.ts';
import { createUserSchema, DEFAULT_ROLE, userCreatedMessage } from '../../../contract/users.ts';
import { PageLoader } from '../../components/page-loader.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { ApiError } from '../../lib/api.ts';
import { setFieldErrors } from '../../lib/errors.ts';
import { showFlash } from '../../lib/flash.ts';
import { formatShortDate } from '../../lib/format.ts';
import { createUser, userKeys, useUsers } from './api/users.ts';
import { roleOptions } from './role-options.ts';

type AddForm = { email: string; first_name: string; last_name: string; user_role_id: string };
const emptyForm: AddForm = { email: '', first_name: '', last_name: '', user_role_id: String(DEFAULT_ROLE) };

export default function UserListPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const users = useUsers(page, debounced);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AddForm, unknown, z.output<typeof createUserSchema>>({
    resolver: zodResolver(createUserSchema) as never,
    defaultValues: emptyForm,
  });
  const errors = form.formState.errors;

  const add = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const created = await createUser(values);
      form.reset(emptyForm);
      setPage(1);
      await queryClient.invalidateQueries({ queryKey: userKeys.lists });
      showFlash(userCreatedMessage(created.password));
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure(error.message);
        setFieldErrors(error, form.setError);
      } else {
        setFailure('Sorry, an unknown error occurred. Please refresh the page and try again.');
      }
    }
  });

  return (
    <Stack>
      <Title order={1}>Users</Title>

      <Paper withBorder p="md" radius="md" component="form" onSubmit={add} noValidate aria-labelledby="add-user-heading">
        <Title order={2} size="h4" id="add-user-heading" mb="xs">
          Add user
        </Title>
        {failure && (
          <Alert color="red" role="alert" mb="sm">
            {failure}
          </Alert>
        )}
        <Grid align="flex-start">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label="Email" type="email" required error={errors.email?.message} {...form.register('email')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput label="First Name" required error={errors.first_name?.message} {...form.register('first_name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
            <TextInput label="Last Name" required error={errors.last_name?.message} {...form.register('last_name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <NativeSelect label="Role" required data={roleOptions} error={errors.user_role_id?.message} {...form.register('user_role_id')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 2 }}>
            <Button type="submit" mt={{ lg: 25 }} fullWidth loading={form.formState.isSubmitting}>
              Add User
            </Button>
          </Grid.Col>
        </Grid>
        <Text size="xs" c="dimmed" mt="xs">
          Tripdesk makes a strong password for the new account and shows it to you once.
        </Text>
      </Paper>

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

      {users.isPending && <PageLoader />}
      {users.isError && (
        <Alert color="red" role="alert">
          The users could not be loaded. Please refresh the page and try again.
        </Alert>
      )}
      {users.data && (
        <>
          <Table striped highlightOnHover verticalSpacing="sm" aria-busy={users.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th ta="right">Bookings</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.data.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" ta="center" py="md">
                      {debounced ? 'No users match this search.' : 'There are no users yet.'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {users.data.data.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td fw={500}>
                    {user.first_name} {user.last_name}
                  </Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>{user.role.display_name}</Table.Td>
                  <Table.Td>{formatShortDate(user.created_at)}</Table.Td>
                  <Table.Td ta="right">{user.bookings_count}</Table.Td>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Anchor component={Link} to={path('user-edit', { id: user.id })} aria-label={`Update User ${user.first_name} ${user.last_name}`}>
                        Update User
                      </Anchor>
                      <Anchor component={Link} to={`${path('booking-list')}?user_id=${user.id}`} aria-label={`View Bookings of ${user.first_name} ${user.last_name}`}>
                        View Bookings
                      </Anchor>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Pagination
            page={page}
            lastPage={users.data.last_page}
            onChange={setPage}
            from={users.data.from}
            to={users.data.to}
            total={users.data.total}
            noun="users"
          />
        </>
      )}
    </Stack>
  );
}
