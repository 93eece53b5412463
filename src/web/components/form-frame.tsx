import { Alert, Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEventHandler, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../lib/api.ts';
import NotFoundPage from './not-found-page.tsx';
import { PageLoader } from './page-loader.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** The danger alert for what the server said (or the screen's fallback); nothing when all is well. */
export function ServerAlert({
  failure,
  variant = 'filled',
}: {
  failure: string | null | undefined;
  variant?: 'filled' | 'light';
}) {
  if (!failure) return null;
  return (
    <Alert color="red" variant={variant} role="alert" className="alert alert-danger" style={{ whiteSpace: 'pre-line' }}>
      {failure}
    </Alert>
  );
}

/**
 * A record screen's three first states, in one place: loading, not found (404), and could not be
 * loaded (with the screen's words); then the record itself.
 */
export function RecordLoader<T>({
  query,
  failed,
  children,
}: {
  query: UseQueryResult<T>;
  failed: string;
  children: (record: T) => ReactNode;
}) {
  if (query.isPending) return <PageLoader />;
  if (query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {failed}
      </Alert>
    );
  }
  return <>{children(query.data as T)}</>;
}

/** A destructive action behind a yes/no question (the spec words each one). */
export type Destructive = {
  label: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  /** the confirm dialog's title, its accessible name (default 'Please confirm') */
  title?: string;
  /** runs after "yes"; the dialog shows it busy until it settles, then closes */
  onConfirm: () => Promise<unknown>;
};

type FormPageProps = {
  title: ReactNode;
  /** the form's accessible name */
  label: string;
  failure?: string | null;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  submitting: boolean;
  back?: { to: string; label: string };
  destructive?: Destructive;
  /** more buttons beside the submit button */
  actions?: ReactNode;
  /** anything between the heading and the form (tabs, notices) */
  above?: ReactNode;
  /** anything after the form (panels of the record) */
  below?: ReactNode;
  maw?: number | string;
  /** the record cannot be changed: no submit button (disable the fields in `children`) */
  readOnly?: boolean;
  children: ReactNode;
};

/**
 * The one frame of a form screen: the heading, the server's message in a danger alert,
 * the form in a card, and its footer: submit (busy while saving), the back link, and the
 * destructive button with its confirm dialog.
 */
export function FormPage({
  title,
  label,
  failure,
  onSubmit,
  submitLabel,
  submitting,
  back,
  destructive,
  actions,
  above,
  below,
  maw = 720,
  readOnly,
  children,
}: FormPageProps) {
  return (
    <Stack maw={maw}>
      <Title order={1}>{title}</Title>
      <ServerAlert failure={failure} />
      {above}
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={onSubmit} noValidate aria-label={label}>
        <Stack>
          {children}
          <Group justify="space-between" mt="sm">
            <Group>
              {!readOnly && (
                <Button type="submit" loading={submitting}>
                  {submitLabel}
                </Button>
              )}
              {actions}
              {back && (
                <Anchor component={Link} to={back.to}>
                  {back.label}
                </Anchor>
              )}
            </Group>
            {destructive && <DestructiveButton {...destructive} />}
          </Group>
        </Stack>
      </Paper>
      {below}
    </Stack>
  );
}

/** A red button that asks first; "yes" runs the action with the dialog busy. */
export function DestructiveButton({
  label,
  message,
  confirmLabel,
  cancelLabel,
  title,
  onConfirm,
  size,
  variant = 'light',
  ariaLabel,
}: Destructive & {
  size?: 'xs' | 'sm';
  variant?: 'light' | 'outline';
  /** the button's accessible name when its label alone is ambiguous (a row's Delete) */ ariaLabel?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <>
      <Button color="red" variant={variant} size={size} onClick={() => setAsking(true)} aria-label={ariaLabel}>
        {label}
      </Button>
      <ConfirmDialog
        opened={asking}
        title={title}
        message={message}
        cancelLabel={cancelLabel}
        confirmLabel={confirmLabel}
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        busy={busy}
      />
    </>
  );
}
