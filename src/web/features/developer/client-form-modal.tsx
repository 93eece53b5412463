import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { Whoops } from './whoops.tsx';

export type ClientValues = { name: string; redirect: string };

type Props = {
  opened: boolean;
  title: 'Create Client' | 'Edit Client';
  submitLabel: 'Create' | 'Save Changes';
  values: ClientValues;
  errors: string[];
  busy: boolean;
  onChange: (values: ClientValues) => void;
  onSubmit: () => void;
  onClose: () => void;
};

/** Spec §2: the Create Client and Edit Client modals; Enter in either field submits. */
export function ClientFormModal({ opened, title, submitLabel, values, errors, busy, onChange, onSubmit, onClose }: Props) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* no client-side validation (spec §5): the server's errors are shown */}
      <form onSubmit={submit} noValidate>
        <Stack>
          <Whoops messages={errors} />
          <TextInput
            label="Name"
            data-autofocus
            description="Something your users will recognize and trust."
            value={values.name}
            onChange={(e) => onChange({ ...values, name: e.currentTarget.value })}
          />
          <TextInput
            label="Redirect URL"
            description="Your application's authorization callback URL."
            placeholder="https://example.com/callback"
            value={values.redirect}
            onChange={(e) => onChange({ ...values, redirect: e.currentTarget.value })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
