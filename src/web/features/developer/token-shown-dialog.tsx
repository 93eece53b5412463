import { Button, CopyButton, Group, Modal, Stack, Text, Textarea } from '@mantine/core';

/** Spec §2: the one time the new personal access token is shown. */
export function TokenShownDialog({ token, onClose }: { token: string; onClose: () => void }) {
  return (
    <Modal
      opened
      onClose={onClose}
      title="Personal Access Token"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Text>
          Here is your new personal access token. This is the only time it will be shown so don't lose it! You may now
          use this token to make API requests.
        </Text>
        <Textarea
          label="Token"
          readOnly
          autosize
          minRows={2}
          value={token}
          data-autofocus
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Group justify="flex-end">
          <CopyButton value={token}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
