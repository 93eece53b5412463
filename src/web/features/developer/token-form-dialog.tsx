import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import type { PersonalToken } from '../../../contract/oauth.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { createPersonalToken, developerKeys, useScopes } from './api/developer.ts';
import { useWhoopsForm, Whoops } from './whoops.tsx';

/** Spec §2 the Create Token modal: Name and, when scopes exist, a checkbox per scope id. */
export function TokenFormDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (accessToken: string) => void;
}) {
  const queryClient = useQueryClient();
  const scopes = useScopes();
  const { form, submit, messages, isPending } = useWhoopsForm({
    defaultValues: { name: '', scopes: [] as string[] },
    mutationFn: createPersonalToken,
    onSuccess: (created) => {
      // §4: the new record is appended to the list
      queryClient.setQueryData<PersonalToken[]>(developerKeys.tokens, (list) => [...(list ?? []), created.token]);
      onCreated(created.accessToken);
    },
  });
  return (
    <FormDialog
      title="Create Token"
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      cancelLabel="Close"
      submitLabel="Create"
      submitting={isPending}
      above={<Whoops messages={messages} />}
    >
      <TextInput label="Name" data-autofocus {...form.register('name')} />
      {scopes.data && scopes.data.length > 0 && (
        // §4: toggling a checkbox adds or removes its scope id from the selection
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <Checkbox.Group label="Scopes" value={field.value} onChange={field.onChange}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm" mt={6}>
                {scopes.data.map((s) => (
                  <Checkbox key={s.id} value={s.id} label={s.id} description={s.description} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          )}
        />
      )}
    </FormDialog>
  );
}
