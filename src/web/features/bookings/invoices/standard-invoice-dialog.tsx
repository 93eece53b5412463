import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Invoice } from '../../../../contract/invoices.ts';
import { ApiError } from '../../../lib/api.ts';
import { createStandardInvoice } from '../api/invoices.ts';

/** The standard deposit or balance invoice, worked out by the server from the trip. */
export function StandardInvoiceDialog({ bookingId, onClose, onDone }: { bookingId: number; onClose: () => void; onDone: (invoice: Invoice) => void }) {
  const [type, setType] = useState<'deposit' | 'balance'>('deposit');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ text: string; code?: string } | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      onDone(await createStandardInvoice(bookingId, { invoice_type: type, discount_code: code }));
    } catch (error) {
      // spec §8: 'Something went wrong.'; the server's reason follows when it gives one
      const codeError = error instanceof ApiError ? error.errors?.discount_code?.[0] : undefined;
      const reason = error instanceof ApiError && error.status === 422 && !codeError ? ` ${error.message}` : '';
      setFailure({ text: `Something went wrong.${reason}`, code: codeError });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Standard Invoice" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure.text}
            </Alert>
          )}
          <Radio.Group label="Invoice" value={type} onChange={(v) => setType(v as 'deposit' | 'balance')}>
            <Stack gap="xs" mt="xs">
              <Radio value="deposit" label="Deposit" description="The trip’s deposit, due in 14 days." />
              <Radio value="balance" label="Balance" description="The trip cost and add-ons not yet invoiced, less the travel-basis discount and what was billed before." />
            </Stack>
          </Radio.Group>
          <TextInput label="Discount code (optional)" value={code} onChange={(e) => setCode(e.currentTarget.value)} error={failure?.code} />
          <Text size="xs" c="dimmed">
            The invoice is raised today.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create Invoice
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
