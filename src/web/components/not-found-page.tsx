import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack align="flex-start" maw={560} py="xl">
      <Title order={1}>Page not found</Title>
      <Text>There is no page at this address. It may have been moved, or the link may be mistyped.</Text>
      <Button component={Link} to="/">
        Go to the start page
      </Button>
    </Stack>
  );
}
