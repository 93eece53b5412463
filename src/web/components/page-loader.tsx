import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** A loading indicator that screen readers announce. */
export function PageLoader() {
  return (
    <Center py="xl" role="status">
      <Loader />
      <VisuallyHidden>Loading…</VisuallyHidden>
    </Center>
  );
}
