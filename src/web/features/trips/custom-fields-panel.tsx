import { Alert, Button, Group, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CustomField } from '../../../contract/trips.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, fieldErrors, joinMessages } from '../../lib/errors.ts';
import { addField, deleteField, tripKeys, updateField, useFields } from './api/trips.ts';

/** The questions this trip's booking form asks, with the instructions shown under each. */
export function CustomFieldsPanel({ tripId }: { tripId: number }) {
  const queryClient = useQueryClient();
  const fields = useFields(tripId);
  const [editing, setEditing] = useState<CustomField | null>(null);
  const [label, setLabel] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: tripKeys.fields(tripId) });

  const reset = () => {
    setEditing(null);
    setLabel('');
    setNote('');
    setErrors({});
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFailure(null);
    try {
      if (editing) await updateField(editing.id, { label, note });
      else await addField({ trip_id: tripId, label, note });
      reset();
      await refresh();
    } catch (error) {
      setErrors(fieldErrors(error));
      if (!(error instanceof ApiError && error.errors)) setFailure(errorMessage(error));
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await deleteField(deleting.id);
      if (editing?.id === deleting.id) reset();
      await refresh();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        Custom fields
      </Title>
      {failure && (
        <Alert color="red" role="alert" mb="sm">
          {failure}
        </Alert>
      )}
      {fields.data && fields.data.length === 0 && <Text c="dimmed">This trip’s booking form asks no extra questions.</Text>}
      {fields.data && fields.data.length > 0 && (
        <Table mb="md">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>Instructions</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.data.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td fw={500}>{f.label}</Table.Td>
                <Table.Td>{f.note ?? <Text c="dimmed" span>None</Text>}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => { setEditing(f); setLabel(f.label); setNote(f.note ?? ''); setErrors({}); }}>
                      Edit
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => setDeleting(f)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form onSubmit={save} noValidate aria-label={editing ? 'Change custom field' : 'Add a custom field'}>
        <Stack gap="xs" maw={560}>
          <TextInput label="Label" required value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={joinMessages(errors.label)} />
          <Textarea
            label="Note"
            description="Instructions shown under the field on the booking form"
            autosize
            minRows={2}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={joinMessages(errors.note)}
          />
          <Group>
            <Button type="submit">{editing ? 'Save Field' : 'Add Field'}</Button>
            {editing && (
              <Button variant="default" onClick={reset}>
                Cancel
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={deleting !== null}
        message="Are you sure you want to delete this field? All the data entered for it will be lost."
        confirmLabel="Yes, Delete the Field"
        cancelLabel="No, Cancel"
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Paper>
  );
}
