import { Alert, Button, Group, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { CustomField } from '../../../contract/trips.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { joinMessages } from '../../lib/errors.ts';
import { addField, deleteField, tripKeys, updateField, useFields } from './api/trips.ts';
import { useRowEditor } from './use-row-editor.ts';

/** The questions this trip's booking form asks, with the instructions shown under each. */
export function CustomFieldsPanel({ tripId }: { tripId: number }) {
  const queryClient = useQueryClient();
  const fields = useFields(tripId);
  const ed = useRowEditor<CustomField, { label: string; note: string }>({
    empty: { label: '', note: '' },
    toValues: (f) => ({ label: f.label, note: f.note ?? '' }),
    create: (v) => addField({ trip_id: tripId, ...v }),
    update: (id, v) => updateField(id, v),
    remove: deleteField,
    refresh: () => queryClient.invalidateQueries({ queryKey: tripKeys.fields(tripId) }),
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        Custom fields
      </Title>
      {ed.failure && (
        <Alert color="red" role="alert" mb="sm">
          {ed.failure}
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
                    <Button size="xs" variant="default" onClick={() => ed.startEdit(f)}>
                      Edit
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => ed.setRemoving(f)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form onSubmit={ed.save} noValidate aria-label={ed.editing ? 'Change custom field' : 'Add a custom field'}>
        <Stack gap="xs" maw={560}>
          <TextInput label="Label" required value={ed.values.label} onChange={(e) => ed.set('label', e.currentTarget.value)} error={joinMessages(ed.errors.label)} />
          <Textarea
            label="Note"
            description="Instructions shown under the field on the booking form"
            autosize
            minRows={2}
            value={ed.values.note}
            onChange={(e) => ed.set('note', e.currentTarget.value)}
            error={joinMessages(ed.errors.note)}
          />
          <Group>
            <Button type="submit">{ed.editing ? 'Save Field' : 'Add Field'}</Button>
            {ed.editing && (
              <Button variant="default" onClick={ed.reset}>
                Cancel
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={ed.removing !== null}
        message="Are you sure you want to delete this field? All the data entered for it will be lost."
        confirmLabel="Yes, Delete the Field"
        cancelLabel="No, Cancel"
        onCancel={() => ed.setRemoving(null)}
        onConfirm={ed.confirmRemove}
      />
    </Paper>
  );
}
