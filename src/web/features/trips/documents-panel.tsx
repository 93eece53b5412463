import { Alert, Anchor, Button, FileButton, Group, Paper, Progress, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { TripDocument } from '../../../contract/trips.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { fieldErrors, joinMessages } from '../../lib/errors.ts';
import { formatShortDate } from '../../lib/format.ts';
import { addDocument, deleteDocument, tripKeys, uploadDocument, useDocuments } from './api/trips.ts';

const size = (bytes: number | null) =>
  bytes === null ? '' : bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function DocumentsPanel({ tripId }: { tripId: number }) {
  const queryClient = useQueryClient();
  const documents = useDocuments(tripId);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TripDocument | null>(null);
  const [progress, setProgress] = useState<{ id: number; percent: number } | null>(null);
  const resets = useRef(new Map<number, () => void>());
  const refresh = () => queryClient.invalidateQueries({ queryKey: tripKeys.documents(tripId) });

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFailure(null);
    try {
      await addDocument({ trip_id: tripId, name });
      setName('');
      await refresh();
    } catch (error) {
      if (error instanceof ApiError && (error.errors || error.status === 422)) {
        setErrors(fieldErrors(error));
        setFailure(error.message);
      } else {
        setFailure('Sorry, something went wrong. Please refresh the page and try again.');
      }
    }
  };

  const upload = async (doc: TripDocument, file: File | null) => {
    if (!file) return;
    setFailure(null);
    setProgress({ id: doc.id, percent: 0 });
    try {
      await uploadDocument(doc.id, file, (percent) => setProgress({ id: doc.id, percent }));
      await refresh();
    } catch (error) {
      const reason = error instanceof ApiError ? error.errors?.document_file?.[0] : undefined;
      setFailure(reason ?? 'An error occurred with the upload. Please refresh the page and try again.');
    } finally {
      setProgress(null);
      resets.current.get(doc.id)?.();
    }
  };

  const remove = async () => {
    if (!removing) return;
    try {
      await deleteDocument(removing.id);
      await refresh();
    } catch {
      setFailure('Sorry, an error occurred. Please refresh the page and try again.');
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        Documents
      </Title>
      {failure && (
        <Alert color="red" role="alert" mb="sm">
          {failure}
        </Alert>
      )}
      {documents.data && documents.data.length === 0 && <Text c="dimmed">This trip has no documents.</Text>}
      {documents.data && documents.data.length > 0 && (
        <Table mb="md">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Document</Table.Th>
              <Table.Th>File</Table.Th>
              <Table.Th>Uploaded</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {documents.data.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td fw={500}>{d.name}</Table.Td>
                <Table.Td>
                  {d.signed_url ? (
                    <Anchor href={d.signed_url} download={d.filename ?? undefined}>
                      {d.filename}
                    </Anchor>
                  ) : (
                    <Text c="dimmed" span>
                      No file yet
                    </Text>
                  )}{' '}
                  <Text span size="xs" c="dimmed">
                    {size(d.size)}
                  </Text>
                  {progress?.id === d.id && (
                    <Progress value={progress.percent} mt={6} size="md" aria-label={`Uploading ${d.name}: ${progress.percent}%`} animated />
                  )}
                </Table.Td>
                <Table.Td>{d.uploaded_at ? formatShortDate(d.uploaded_at) : ''}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <FileButton
                      onChange={(file) => upload(d, file)}
                      accept=".pdf,.png,.jpg,.jpeg,.gif,.webp,.doc,.docx,.xls,.xlsx,.txt,.csv"
                      resetRef={(reset) => {
                        if (reset) resets.current.set(d.id, reset);
                      }}
                    >
                      {(props) => (
                        <Button {...props} size="xs" variant="default" loading={progress?.id === d.id} aria-label={`Upload a file for ${d.name}`}>
                          Upload
                        </Button>
                      )}
                    </FileButton>
                    <Button size="xs" variant="light" color="red" onClick={() => setRemoving(d)} aria-label={`Remove ${d.name}`}>
                      Remove
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form onSubmit={add} noValidate aria-label="Add a document">
        <Group align="flex-start">
          <TextInput label="Document name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={joinMessages(errors.name)} w={320} />
          <Button type="submit" mt={25}>
            Add Document
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          PDF, images, Word, Excel or text files of up to 20 MB. Download links work for an hour.
        </Text>
      </form>
      <ConfirmDialog
        opened={removing !== null}
        message="Are you sure? This action is permanent!"
        confirmLabel="Yes, Remove the Document"
        cancelLabel="No, Cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={remove}
      />
    </Paper>
  );
}
