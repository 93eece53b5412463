import { Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { ServerAlert } from './form-frame.tsx';

// apart from form-frame.tsx: a screen that uses FormPage or RecordLoader does not load Modal

type FormDialogProps = {
  title: ReactNode;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  failure?: string | null;
  submitLabel: string;
  submitting: boolean;
  cancelLabel?: string;
  size?: ModalProps['size'];
  /** anything before the server's message (a summary of the record) */
  above?: ReactNode;
  /** the submit button destroys or ends something: red */
  danger?: boolean;
  children: ReactNode;
};

/**
 * The one frame of a form in a dialog: the title and close button, the server's
 * message, the fields, and the footer of Cancel and the submit button (busy while saving).
 * It is open while mounted: open it by rendering it.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  failure,
  submitLabel,
  submitting,
  cancelLabel = 'Cancel',
  size,
  above,
  danger = false,
  children,
}: FormDialogProps) {
  return (
    <Modal opened onClose={onClose} title={title} size={size} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {above}
          <ServerAlert failure={failure} variant="light" />
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button type="submit" loading={submitting} color={danger ? 'red' : undefined}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
