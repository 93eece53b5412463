import { Alert, Anchor, Button, FileButton, Group, Image, Input, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import type { updateCharitySchema, Charity } from '../../../contract/charities.ts';
import { path } from '../../../contract/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PageLoader } from '../../components/page-loader.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, joinMessages, setFieldErrors } from '../../lib/errors.ts';
import { pushFlash } from '../../lib/flash.ts';
import NotFoundPage from '../../components/not-found-page.tsx';
import { charityKeys, deleteCharity, deleteCharityLogo, updateCharity, uploadCharityLogo, useCharity } from './api/charities.ts';
import { charityTypeOptions } from './charity-type-options.ts';

type FormValues = z.input<typeof updateCharitySchema>;

export default function CharityEditPage() {
  const id = Number(useParams().id);
  const charity = useCharity(id);
  if (charity.isPending) return <PageLoader />;
  if (charity.error instanceof ApiError && charity.error.status === 404) return <NotFoundPage />;
  if (charity.isError) {
    return (
      <Alert color="red" role="alert">
        The charity could not be loaded. Please refresh the page and try again.
      </Alert>
    );
  }
  return <CharityForm charity={charity.data} />;
}

function CharityForm({ charity }: { charity: Charity }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // logo changes replace the charity on screen with the server's reply (spec §4)
  const setCharity = (updated: Charity) => {
    queryClient.setQueryData(charityKeys.one(updated.id), updated);
    void queryClient.invalidateQueries({ queryKey: charityKeys.lists });
  };
  const [failure, setFailure] = useState<string | null>(null);
  const [logoError, setLogoError] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);
  const [confirm, setConfirm] = useState<'delete' | 'logo' | null>(null);
  const [busy, setBusy] = useState(false);
  const resetFile = useRef<() => void>(null);
  const form = useForm<FormValues, unknown, z.output<typeof updateCharitySchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/charities.ts').then((m) => m.updateCharitySchema)),
    defaultValues: { name: charity.name, charity_type_id: String(charity.charity_type_id), url: charity.url ?? '' },
  });

  const save = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await updateCharity(charity.id, values);
      await queryClient.invalidateQueries({ queryKey: charityKeys.all });
      pushFlash('Charity details updated');
      navigate(path('charity-list'));
    } catch (error) {
      if (error instanceof ApiError) {
        // a reply from the server: its message above the form, field errors under the fields
        setFailure(error.message);
        setFieldErrors(error, form.setError);
      } else {
        setFailure(errorMessage(error));
      }
    }
  });

  const remove = async () => {
    setBusy(true);
    try {
      await deleteCharity(charity.id);
      await queryClient.invalidateQueries({ queryKey: charityKeys.all });
      pushFlash('Charity record deleted');
      navigate(path('charity-list'));
    } catch (error) {
      setConfirm(null);
      // the server says why it refused (a charity that trips or bookings refer to); otherwise the spec's words
      setFailure(
        error instanceof ApiError && error.status === 422
          ? error.message
          : 'Sorry, an error occurred. Please refresh the page and try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File | null) => {
    if (!file) return;
    setLogoError(undefined);
    setUploading(true);
    try {
      setCharity(await uploadCharityLogo(charity.id, file));
    } catch (error) {
      setLogoError(joinMessages(error instanceof ApiError ? error.errors?.charity_logo : undefined) ?? errorMessage(error));
    } finally {
      setUploading(false);
      // the same file may be chosen again after a failure
      resetFile.current?.();
    }
  };

  const removeLogo = async () => {
    setBusy(true);
    try {
      setCharity(await deleteCharityLogo(charity.id));
    } catch (error) {
      setLogoError(errorMessage(error));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  return (
    <Stack maw={720}>
      <Title order={1}>Edit Charity: {charity.name}</Title>
      {failure && (
        <Alert color="red" variant="filled" role="alert" className="alert alert-danger">
          {failure}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={save} noValidate aria-label="Charity details">
        <Stack>
          <TextInput label="Charity Name" required error={form.formState.errors.name?.message} {...form.register('name')} />
          <NativeSelect
            label="Type of Charity"
            data={charityTypeOptions}
            error={form.formState.errors.charity_type_id?.message}
            {...form.register('charity_type_id')}
          />
          <TextInput
            label="Website URL"
            placeholder="https://www.example.org"
            type="url"
            error={form.formState.errors.url?.message}
            {...form.register('url')}
          />
          <Input.Wrapper
            label="Logo (JPG or PNG)"
            description="A JPG or PNG image of up to 5 MB; it replaces the current logo"
            error={logoError}
            id="charity-logo"
          >
            <Group mt={4}>
              <FileButton onChange={upload} accept="image/png,image/jpeg" resetRef={resetFile} disabled={uploading}>
                {(props) => (
                  <Button {...props} variant="default" loading={uploading} aria-describedby="charity-logo-description charity-logo-error">
                    {charity.logo_url ? 'Upload a new logo' : 'Upload a logo'}
                  </Button>
                )}
              </FileButton>
            </Group>
          </Input.Wrapper>
          {charity.logo_url && (
            <div>
              <Text size="sm" fw={500} mb={4}>
                Current Logo
              </Text>
              <Group align="center">
                <Image src={charity.logo_url} alt={`${charity.name} logo`} maw={150} />
                <Button variant="outline" color="red" size="xs" onClick={() => setConfirm('logo')}>
                  Remove Logo
                </Button>
              </Group>
            </div>
          )}
          <Group justify="space-between" mt="sm">
            <Group>
              <Button type="submit" loading={form.formState.isSubmitting}>
                Save Charity Record
              </Button>
              <Anchor component={Link} to={path('charity-list')}>
                Back to Charity List
              </Anchor>
            </Group>
            <Button color="red" variant="light" onClick={() => setConfirm('delete')}>
              Delete Charity Record
            </Button>
          </Group>
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirm === 'delete'}
        message="Are you sure you want to delete this charity? This action is irreversible!"
        cancelLabel="No, Cancel"
        confirmLabel="Yes, Delete the Record"
        onCancel={() => setConfirm(null)}
        onConfirm={remove}
        busy={busy}
      />
      <ConfirmDialog
        opened={confirm === 'logo'}
        message="Are you sure you want to remove this logo?"
        cancelLabel="No, Cancel"
        confirmLabel="Yes, Remove the Logo"
        onCancel={() => setConfirm(null)}
        onConfirm={removeLogo}
        busy={busy}
      />
    </Stack>
  );
}
