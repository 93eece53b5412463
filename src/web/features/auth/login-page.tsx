import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { LoginInput } from '../../../contract/auth.ts';
import { safeNextPath } from '../../../contract/safe-next-path.ts';
import { api } from '../../lib/api.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { FlashMessages } from '../../components/flash-messages.tsx';
import { ServerAlert } from '../../components/form-frame.tsx';

export default function LoginPage() {
  const [params] = useSearchParams();
  const next = params.get('next') ?? '/';
  const form = useForm<LoginInput>({
    resolver: lazyZodResolver(() => import('../../../contract/auth.ts').then((m) => m.loginSchema)),
    defaultValues: { email: '', password: '' },
  });
  const signingIn = useFormMutation({
    mutationFn: ({ email, password }: LoginInput) => api('/login', { method: 'POST', body: { email, password } }),
    setError: form.setError,
    // what the fields say is enough; a refusal without them (too many tries) is said above
    alertWithFieldErrors: false,
    fallback: 'Tripdesk could not be reached. Check your connection and try again.',
    // a full load: the new session's page carries its own CSRF token
    onSuccess: () => window.location.assign(safeNextPath(next)),
  });
  const submit = form.handleSubmit((values) => signingIn.submit(values));

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
          <ServerAlert failure={signingIn.failure} variant="light" />
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
