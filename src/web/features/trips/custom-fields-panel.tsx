import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { CustomField } from '../../../contract/trips.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { DestructiveButton } from '../../components/form-frame.tsx';
import { useCan } from '../../lib/session.tsx';
import { addField, deleteField, tripKeys, updateField, useFields } from './api/trips.ts';
import { editingRow, TripPanel } from './trip-panel.tsx';
import { useRowEditor } from './use-row-editor.ts';

/** The questions this trip's booking form asks, with the instructions shown under each (trips change edits them). */
export function CustomFieldsPanel({ tripId }: { tripId: number }) {
  const may = useCan();
  const fields = useFields(tripId);
  const ed = useRowEditor<CustomField, { label: string; note: string }>({
    empty: { label: '', note: '' },
    toValues: (f) => ({ label: f.label, note: f.note ?? '' }),
    create: (v) => addField({ trip_id: tripId, ...v }),
    update: (id, v) => updateField(id, v),
    remove: deleteField,
    invalidate: [tripKeys.one(tripId)],
    saveFallback: 'Sorry, the field could not be saved. Please try again.',
  });

  const columns: Array<Column<CustomField>> = [
    { key: 'label', label: 'Label', cell: (f) => f.label, cellProps: () => ({ fw: 500 }) },
    {
      key: 'note',
      label: 'Instructions',
      cell: (f) =>
        f.note ?? (
          <Text c="dimmed" span size="sm">
            None
          </Text>
        ),
    },
    {
      key: 'actions',
      label: 'Actions',
      hidden: !may('trips'),
      cell: (f) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => ed.startEdit(f)} aria-label={`Edit ${f.label}`}>
            Edit
          </Button>
          <DestructiveButton
            size="xs"
            label="Delete"
            ariaLabel={`Delete ${f.label}`}
            message="Are you sure you want to delete this field? All the data entered for it will be lost."
            confirmLabel="Yes, Delete the Field"
            cancelLabel="No, Cancel"
            onConfirm={() => ed.remove(f)}
          />
        </Group>
      ),
    },
  ];

  return (
    <TripPanel title="Custom fields" failure={ed.failure}>
      <DataTable
        columns={columns}
        query={fields}
        failed="The custom fields could not be loaded. Please refresh the page and try again."
        rowKey={(f) => f.id}
        empty="This trip’s booking form asks no extra questions."
        rowProps={(f) => editingRow(ed.editing?.id === f.id)}
      />
      {may('trips') && (
        <form onSubmit={ed.save} noValidate aria-label={ed.editing ? 'Change custom field' : 'Add a custom field'}>
          <Stack gap="xs" maw={560}>
            <TextInput label="Label" required error={ed.errors.label?.message} {...ed.form.register('label')} />
            <Textarea
              label="Note"
              description="Instructions shown under the field on the booking form"
              rows={3}
              resize="vertical"
              error={ed.errors.note?.message}
              {...ed.form.register('note')}
            />
            <Group>
              <Button type="submit" loading={ed.saving}>
                {ed.editing ? 'Save Field' : 'Add Field'}
              </Button>
              {ed.editing && (
                <Button variant="default" onClick={ed.reset}>
                  Cancel
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </TripPanel>
  );
}
