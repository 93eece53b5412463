import { Alert, List } from '@mantine/core';
import { ApiError } from '../../lib/api.ts';

/**
 * Spec §8 for the developer area: a failed create or update with an object body shows its
 * errors flattened into bullets under 'Whoops! Something went wrong!'; any other failure says
 * 'Something went wrong. Please try again.' under the same heading.
 */
export function whoopsMessages(error: unknown): string[] {
  if (error instanceof ApiError && error.body && typeof error.body === 'object' && error.errors) {
    const all = Object.values(error.errors).flat();
    if (all.length) return all;
  }
  return ['Something went wrong. Please try again.'];
}

export function Whoops({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <Alert color="red" role="alert" title="Whoops! Something went wrong!">
      <List size="sm">
        {messages.map((m, i) => (
          <List.Item key={i}>{m}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
