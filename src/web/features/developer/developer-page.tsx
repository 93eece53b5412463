import { Code, Stack, Text, Title } from '@mantine/core';
import { AuthorizedAppsPanel } from './authorized-apps-panel.tsx';
import { ClientsPanel } from './clients-panel.tsx';
import { PersonalTokensPanel } from './personal-tokens-panel.tsx';

/** Spec §1 Developer area: for every signed-in user, whatever their role; their own records only. */
export default function DeveloperPage() {
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Developer</Title>
        <Text c="dimmed" size="sm" mt={4}>
          Let other applications use Tripdesk for you. Send a token with each API request as{' '}
          <Code>Authorization: Bearer &lt;token&gt;</Code>; it can do what its scopes allow and your account may do. The
          API is described at <a href="/api/docs">/api/docs</a>.
        </Text>
      </div>
      <ClientsPanel />
      <PersonalTokensPanel />
      <AuthorizedAppsPanel />
    </Stack>
  );
}
