import { Button, Group, Modal, Text } from '@mantine/core';

type Props = {
  opened: boolean;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  title?: string;
};

/** A yes/no question before something that cannot be undone; the spec gives each one its words. */
export function ConfirmDialog({ opened, message, confirmLabel, cancelLabel, onConfirm, onCancel, busy, title = 'Please confirm' }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {cancelLabel}
        </Button>
        <Button color="red.9" onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
