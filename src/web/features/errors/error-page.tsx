import { Button, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown instead of a screen that failed: what happened, and a way back. */
export default function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Stack align="flex-start" maw={640} p="xl" role="alert">
      <Title order={1}>Something went wrong</Title>
      <Text>This screen ran into a problem and could not be shown. Nothing you saved before this has been lost.</Text>
      <Text size="sm" c="dimmed">
        If it happens again, tell the Tripdesk team what you were doing and quote: <Code>{detail}</Code>
      </Text>
      <Button onClick={() => window.location.reload()}>Reload the page</Button>
    </Stack>
  );
}
