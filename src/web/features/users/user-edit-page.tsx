import { Alert, Anchor, Button, Grid, Group, NativeSelect, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { path } from '../../../contract/paths.ts';
import type { updateUserSchema, User } from '../../../contract/users.ts';
import { MIN_PASSWORD_LENGTH } from '../../../contract/constants.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PageLoader } from '../../components/page-loader.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, setFieldErrors } from '../../lib/errors.ts';
import { pushFlash } from '../../lib/flash.ts';
import { useCurrentUser } from '../../lib/session.tsx';
import NotFoundPage from '../../components/not-found-page.tsx';
import { deleteUser, updateUser, userKeys, useUser } from './api/users.ts';
import { roleOptions } from './role-options.ts';

type FormValues = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  user_role_id: string;
  password: string;
  confirm_password: string;
};

export default function UserEditPage() {
  const id = Number(useParams().id);
  const user = useUser(id);
  if (user.isPending) return <PageLoader />;
  if (user.error instanceof ApiError && user.error.status === 404) return <NotFoundPage />;
  if (user.isError) {
    return (
      <Alert color="red" role="alert">
        The user could not be loaded. Please refresh the page and try again.
      </Alert>
    );
  }
  return <UserForm user={user.data} />;
}

function UserForm({ user }: { user: User }) {
  const me = useCurrentUser();
  const isMe = me?.id === user.id;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const form = useForm<FormValues, unknown, z.output<typeof updateUserSchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/users.ts').then((m) => m.updateUserSchema)) as never,
    defaultValues: {
      id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      user_role_id: String(user.user_role_id),
      password: '',
      confirm_password: '',
    },
  });
  const errors = form.formState.errors;

  const save = form.handleSubmit(async () => {
    setFailure(null);
    try {
      await updateUser(form.getValues());
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      pushFlash('User record updated');
      navigate(path('user-list'));
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure(error.message);
        setFieldErrors(error, form.setError);
      } else {
        setFailure(errorMessage(error));
      }
    }
  });

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteUser(user.id);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      pushFlash('User record deleted');
      navigate(path('user-list'));
    } catch (error) {
      setConfirmDelete(false);
      setFailure(error instanceof ApiError ? error.message : 'Sorry, an error occurred. Please refresh the page and try again.');
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Stack maw={760}>
      <Group justify="space-between">
        <Title order={1}>
          Edit User: {user.first_name} {user.last_name}
        </Title>
        <Anchor component={Link} to={path('user-list')}>
          Back to User List
        </Anchor>
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={save} noValidate aria-label="User details">
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="First Name" required error={errors.first_name?.message} {...form.register('first_name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Last Name" required error={errors.last_name?.message} {...form.register('last_name')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Email" type="email" required error={errors.email?.message} {...form.register('email')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            {isMe ? (
              // one's own role is not for changing here; the value stays in the form as loaded
              <TextInput label="Role" readOnly value={user.role.display_name} description="You cannot change your own role." />
            ) : (
              <NativeSelect label="Role" required data={roleOptions} error={errors.user_role_id?.message} {...form.register('user_role_id')} />
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <PasswordInput
              label="New Password"
              autoComplete="new-password"
              description={`Leave blank to keep the current password; at least ${MIN_PASSWORD_LENGTH} characters`}
              error={errors.password?.message}
              {...form.register('password')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <PasswordInput
              label="Confirm Password"
              autoComplete="new-password"
              description="Type the new password again"
              error={errors.confirm_password?.message}
              {...form.register('confirm_password')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Stripe Customer ID"
              readOnly
              value={user.stripe_customer_id ?? 'None'}
              description="Set by the card payment provider"
            />
          </Grid.Col>
        </Grid>
        <Group justify="space-between" mt="lg">
          <Button type="submit" loading={form.formState.isSubmitting}>
            Save User
          </Button>
          {!isMe && (
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              Delete User
            </Button>
          )}
        </Group>
      </Paper>
      <ConfirmDialog
        opened={confirmDelete}
        message="Are you sure you want to delete this user? Their bookings and payments are kept."
        confirmLabel="Yes, Delete the User"
        cancelLabel="No, Cancel"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={remove}
        busy={deleting}
      />
    </Stack>
  );
}
