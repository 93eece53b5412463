import { Button, FileButton, Group, Image, Input, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import type { Charity, updateCharitySchema } from '../../../contract/charities.ts';
import { path } from '../../../contract/paths.ts';
import { DestructiveButton, FormPage, RecordLoader } from '../../components/form-frame.tsx';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import {
  charityKeys,
  deleteCharity,
  deleteCharityLogo,
  updateCharity,
  uploadCharityLogo,
  useCharity,
} from './api/charities.ts';
import { lazyComponent } from '../../components/lazy.tsx';
import { charityTypeOptions } from './charity-type-options.ts';

// the fundraisers (their table) load after the form: the page's first visit stays light
const FundraisersPanel = lazyComponent(() => import('./fundraisers-panel.tsx').then((m) => m.FundraisersPanel));

type FormValues = z.input<typeof updateCharitySchema>;

const FAILED = 'Sorry, an error occurred. Please refresh the page and try again.';

export default function CharityEditPage() {
  const charity = useCharity(Number(useParams().id));
  return (
    <RecordLoader query={charity} failed="The charity could not be loaded. Please refresh the page and try again.">
      {(c) => <CharityForm charity={c} />}
    </RecordLoader>
  );
}

function CharityForm({ charity }: { charity: Charity }) {
  const may = useCan();
  // charities change saves, deletes and changes the logo; charities read only sees them
  const readOnly = !may('charities');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const resetFile = useRef<() => void>(null);
  const form = useForm<FormValues, unknown, z.output<typeof updateCharitySchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/charities.ts').then((m) => m.updateCharitySchema)),
    defaultValues: { name: charity.name, charity_type_id: String(charity.charity_type_id), url: charity.url ?? '' },
  });
  const errors = form.formState.errors;

  // save and delete go back to the list with their flash (spec §4)
  const done = { invalidate: [charityKeys.all], fallback: FAILED, onSuccess: () => navigate(path('charity-list')) };
  const saving = useFormMutation({
    ...done,
    mutationFn: (values: z.output<typeof updateCharitySchema>) => updateCharity(charity.id, values),
    setError: form.setError,
    flash: () => ({ text: 'Charity details updated', on: 'push' }),
  });
  // the server says why it refused (a charity that trips or bookings refer to); otherwise the spec's words
  const removing = useFormMutation({
    ...done,
    mutationFn: () => deleteCharity(charity.id),
    flash: () => ({ text: 'Charity record deleted', on: 'push' }),
  });
  // logo changes replace the charity on screen with the server's reply (spec §4)
  const logo = {
    invalidate: [charityKeys.lists],
    fallback: FAILED,
    onSuccess: (updated: Charity) => void queryClient.setQueryData(charityKeys.one(updated.id), updated),
  };
  const uploading = useFormMutation({ ...logo, mutationFn: (file: File) => uploadCharityLogo(charity.id, file) });
  const removingLogo = useFormMutation({ ...logo, mutationFn: () => deleteCharityLogo(charity.id) });
  const all = [saving, removing, uploading, removingLogo];
  const only =
    <T,>(m: { submit: (v: T) => Promise<boolean> }) =>
    (vars: T) => {
      for (const other of all) if (other !== m) other.clearFailure();
      return m.submit(vars);
    };

  const upload = async (file: File | null) => {
    if (!file) return;
    await only(uploading)(file);
    // the same file may be chosen again after a failure
    resetFile.current?.();
  };

  return (
    <Stack gap="lg">
      <FormPage
        title={`Edit Charity: ${charity.name}`}
        label="Charity details"
        failure={saving.failure ?? removing.failure}
        onSubmit={form.handleSubmit(only(saving))}
        submitLabel="Save Charity Record"
        submitting={form.formState.isSubmitting}
        back={{ to: path('charity-list'), label: 'Back to Charity List' }}
        readOnly={readOnly}
        destructive={
          readOnly
            ? undefined
            : {
                label: 'Delete Charity Record',
                message: 'Are you sure you want to delete this charity? This action is irreversible!',
                cancelLabel: 'No, Cancel',
                confirmLabel: 'Yes, Delete the Record',
                onConfirm: () => only(removing)(undefined),
              }
        }
      >
        <TextInput
          label="Charity Name"
          required
          disabled={readOnly}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <NativeSelect
          label="Type of Charity"
          data={charityTypeOptions}
          disabled={readOnly}
          error={errors.charity_type_id?.message}
          {...form.register('charity_type_id')}
        />
        <TextInput
          label="Website URL"
          placeholder="https://www.example.org"
          type="url"
          disabled={readOnly}
          error={errors.url?.message}
          {...form.register('url')}
        />
        {!readOnly && (
          <Input.Wrapper
            label="Logo (JPG or PNG)"
            description="A JPG or PNG image of up to 5 MB; it replaces the current logo"
            error={uploading.failure ?? removingLogo.failure}
            id="charity-logo"
          >
            <Group mt={4}>
              <FileButton
                onChange={upload}
                accept="image/png,image/jpeg"
                resetRef={resetFile}
                disabled={uploading.isPending}
              >
                {(props) => (
                  <Button
                    {...props}
                    variant="default"
                    loading={uploading.isPending}
                    aria-describedby="charity-logo-description charity-logo-error"
                  >
                    {charity.logo_url ? 'Upload a new logo' : 'Upload a logo'}
                  </Button>
                )}
              </FileButton>
            </Group>
          </Input.Wrapper>
        )}
        {charity.logo_url && (
          <div>
            <Text size="sm" fw={500} mb={4}>
              Current Logo
            </Text>
            <Group align="center">
              <Image src={charity.logo_url} alt={`${charity.name} logo`} maw={150} />
              {!readOnly && (
                <DestructiveButton
                  label="Remove Logo"
                  variant="outline"
                  size="xs"
                  message="Are you sure you want to remove this logo?"
                  cancelLabel="No, Cancel"
                  confirmLabel="Yes, Remove the Logo"
                  onConfirm={() => only(removingLogo)(undefined)}
                />
              )}
            </Group>
          </div>
        )}
      </FormPage>
      <FundraisersPanel charityId={charity.id} />
    </Stack>
  );
}
