import { TextInput } from '@mantine/core';
import type { OAuthClient } from '../../../contract/oauth.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { createClient, developerKeys, updateClient } from './api/developer.ts';
import { useWhoopsForm, Whoops } from './whoops.tsx';

/**
 * Spec §2: the Create Client and Edit Client modals; Enter in either field submits, the name
 * field has the focus. §4: after a save the list reloads and the modal closes (it opens empty).
 */
export function ClientFormDialog({ client, onClose }: { client: OAuthClient | null; onClose: () => void }) {
  const { form, submit, messages, isPending } = useWhoopsForm({
    defaultValues: { name: client?.name ?? '', redirect: client?.redirect ?? '' },
    mutationFn: (values) => (client ? updateClient(client.id, values) : createClient(values)),
    invalidate: [developerKeys.clients],
    onSuccess: onClose,
  });
  return (
    <FormDialog
      title={client ? 'Edit Client' : 'Create Client'}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      cancelLabel="Close"
      submitLabel={client ? 'Save Changes' : 'Create'}
      submitting={isPending}
      above={<Whoops messages={messages} />}
    >
      <TextInput
        label="Name"
        data-autofocus
        description="Something your users will recognize and trust."
        {...form.register('name')}
      />
      <TextInput
        label="Redirect URL"
        description="Your application's authorization callback URL."
        placeholder="https://example.com/callback"
        {...form.register('redirect')}
      />
    </FormDialog>
  );
}
