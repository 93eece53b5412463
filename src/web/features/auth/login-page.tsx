import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { LoginInput } from '../../../contract/auth.ts';
import { safeNextPath } from '../../../contract/paths.ts';
import { ApiError, api } from '../../lib/api.ts';
import { FlashMessages } from '../../components/flash-messages.tsx';

export default function LoginPage() {
  const [params] = useSearchParams();
  const next = params.get('next') ?? '/';
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginInput>({ resolver: lazyZodResolver(() => import('../../../contract/auth.ts').then((m) => m.loginSchema)), defaultValues: { email: '', password: '' } });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api('/login', { method: 'POST', body: { email: values.email, password: values.password } });
      // a full load: the new session's page carries its own CSRF token
      window.location.assign(safeNextPath(next));
    } catch (error) {
      if (error instanceof ApiError && error.errors) {
        for (const [field, messages] of Object.entries(error.errors)) {
          if (field === 'email' || field === 'password') form.setError(field, { message: messages.join('\n') });
        }
        if (!error.errors.email && !error.errors.password) setFailure(error.message);
      } else if (error instanceof ApiError) {
        setFailure(error.message);
      } else {
        setFailure('Tripdesk could not be reached. Check your connection and try again.');
      }
    }
  });

  return (
    <Center mih="100vh" bg="gray.1" p="md">
      <Paper component="main" withBorder shadow="sm" radius="md" p="xl" w={400} maw="100%">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              Tripdesk
            </Title>
            <Text c="dimmed" size="sm">
              Sign in to the back office
            </Text>
          </div>
          <FlashMessages />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <form method="post" action="/login" onSubmit={submit} noValidate>
            <input type="hidden" name="next" value={next} />
            <Stack gap="sm">
              <TextInput
                label="Email"
                type="email"
                autoComplete="username"
                autoFocus
                required
                error={form.formState.errors.email?.message}
                {...form.register('email')}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                error={form.formState.errors.password?.message}
                {...form.register('password')}
              />
              <Button type="submit" loading={form.formState.isSubmitting} fullWidth mt="xs">
                Sign in
              </Button>
            </Stack>
          </form>
          <Text size="xs" c="dimmed">
            Forgotten your password? Ask an administrator to set a new one. API documentation:{' '}
            <Anchor href="/api/docs" size="xs" underline="always">
              /api/docs
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
