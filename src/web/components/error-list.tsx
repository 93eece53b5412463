import { Alert, List } from '@mantine/core';
import { ApiError } from '../lib/api.ts';

/** Spec §8: the server's errors listed, or the screen's own fallback sentence. */
export function ErrorList({ error, fallback }: { error: unknown; fallback: string }) {
  if (!error) return null;
  const messages = error instanceof ApiError && error.errors ? Object.values(error.errors).flat() : null;
  return (
    <Alert color="red" role="alert" title={messages ? 'Please correct the following:' : undefined}>
      {messages ? (
        <List size="sm">
          {messages.map((m, i) => (
            <List.Item key={i}>{m}</List.Item>
          ))}
        </List>
      ) : error instanceof ApiError && error.status === 422 ? (
        error.message
      ) : (
        fallback
      )}
    </Alert>
  );
}
