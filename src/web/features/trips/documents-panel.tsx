import { Anchor, Button, FileButton, Group, Progress, Text, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { TripDocument } from '../../../contract/trips.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { DestructiveButton } from '../../components/form-frame.tsx';
import { formatShortDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { addDocument, deleteDocument, tripKeys, uploadDocument, useDocuments } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

const size = (bytes: number | null) =>
  bytes === null
    ? ''
    : bytes < 1024 * 1024
      ? `${Math.max(1, Math.round(bytes / 1024))} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.doc,.docx,.xls,.xlsx,.txt,.csv';

/** The trip's documents: anyone who may read the trip downloads them; trips change adds, uploads and removes them. */
export function DocumentsPanel({ tripId }: { tripId: number }) {
  const may = useCan();
  const documents = useDocuments(tripId);
  const [progress, setProgress] = useState<{ id: number; percent: number } | null>(null);
  const resets = useRef(new Map<number, () => void>());
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  // the trip's key: its documents and its history
  const invalidate = [tripKeys.one(tripId)];

  // spec §8: the server message and field errors, else its own words for each call
  const adding = useFormMutation({
    mutationFn: (name: string) => addDocument({ trip_id: tripId, name }),
    invalidate,
    setError: form.setError,
    fallback: 'Sorry, something went wrong. Please refresh the page and try again.',
    onSuccess: () => form.reset({ name: '' }),
  });
  const uploading = useFormMutation({
    mutationFn: ({ doc, file }: { doc: TripDocument; file: File }) =>
      uploadDocument(doc.id, file, (percent) => setProgress({ id: doc.id, percent })),
    invalidate,
    fallback: 'An error occurred with the upload. Please refresh the page and try again.',
  });
  const removing = useFormMutation({
    mutationFn: (doc: TripDocument) => deleteDocument(doc.id),
    invalidate,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
  });
  // the panel's one alert says what went wrong last
  const clearFailures = () => [adding, uploading, removing].forEach((m) => m.clearFailure());

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    clearFailures();
    form.clearErrors();
    void adding.submit(form.getValues('name'));
  };

  const upload = async (doc: TripDocument, file: File | null) => {
    if (!file) return;
    clearFailures();
    setProgress({ id: doc.id, percent: 0 });
    await uploading.submit({ doc, file });
    setProgress(null);
    // the same file may be chosen again
    resets.current.get(doc.id)?.();
  };

  const columns: Array<Column<TripDocument>> = [
    { key: 'name', label: 'Document', cell: (d) => d.name, cellProps: () => ({ fw: 500 }) },
    {
      key: 'file',
      label: 'File',
      cell: (d) => (
        <>
          {d.signed_url ? (
            <Anchor href={d.signed_url} download={d.filename ?? undefined} size="sm">
              {d.filename}
            </Anchor>
          ) : (
            <Text c="dimmed" span size="sm">
              No file yet
            </Text>
          )}{' '}
          <Text span size="xs" c="dimmed">
            {size(d.size)}
          </Text>
          {progress?.id === d.id && (
            <Progress
              value={progress.percent}
              mt={6}
              size="md"
              aria-label={`Uploading ${d.name}: ${progress.percent}%`}
              animated
            />
          )}
        </>
      ),
    },
    { key: 'uploaded', label: 'Uploaded', cell: (d) => (d.uploaded_at ? formatShortDate(d.uploaded_at) : '') },
    {
      key: 'actions',
      label: 'Actions',
      hidden: !may('trips'),
      cell: (d) => (
        <Group gap="xs" wrap="nowrap">
          <FileButton
            onChange={(file) => void upload(d, file)}
            accept={ACCEPT}
            resetRef={(reset) => {
              if (reset) resets.current.set(d.id, reset);
            }}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="default"
                loading={progress?.id === d.id}
                aria-label={`Upload a file for ${d.name}`}
              >
                Upload
              </Button>
            )}
          </FileButton>
          <DestructiveButton
            size="xs"
            label="Remove"
            ariaLabel={`Remove ${d.name}`}
            message="Are you sure? This action is permanent!"
            confirmLabel="Yes, Remove the Document"
            cancelLabel="No, Cancel"
            onConfirm={() => {
              clearFailures();
              return removing.submit(d);
            }}
          />
        </Group>
      ),
    },
  ];

  return (
    <TripPanel title="Documents" failure={adding.failure ?? uploading.failure ?? removing.failure}>
      <DataTable
        columns={columns}
        query={documents}
        failed="The documents could not be loaded. Please refresh the page and try again."
        rowKey={(d) => d.id}
        empty="This trip has no documents."
      />
      {may('trips') && (
        <form onSubmit={add} noValidate aria-label="Add a document">
          <Group align="flex-start">
            <TextInput
              label="Document name"
              required
              error={form.formState.errors.name?.message}
              w={320}
              {...form.register('name')}
            />
            <Button type="submit" mt={25} loading={adding.isPending}>
              Add Document
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            PDF, images, Word, Excel or text files of up to 20 MB. Download links work for an hour.
          </Text>
        </form>
      )}
    </TripPanel>
  );
}
