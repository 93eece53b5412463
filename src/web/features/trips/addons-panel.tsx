import { Button, Group, TextInput } from '@mantine/core';
import type { Addon } from '../../../contract/trips.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { DestructiveButton } from '../../components/form-frame.tsx';
import { ToneBadge } from '../../components/status-badge.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { addAddon, removeAddon, tripKeys, updateAddon, useAddons } from './api/trips.ts';
import { editingRow, TripPanel } from './trip-panel.tsx';
import { useRowEditor } from './use-row-editor.ts';

export function AddonsPanel({ tripId, editable: tripEditable }: { tripId: number; editable: boolean }) {
  const may = useCan();
  // trips change adds, edits and removes them
  const editable = tripEditable && may('trips');
  const addons = useAddons(tripId);
  const ed = useRowEditor<Addon, { name: string; price: string }>({
    empty: { name: '', price: '' },
    toValues: (a) => ({ name: a.name, price: a.price.toFixed(2) }),
    create: (v) => addAddon(tripId, v),
    update: (id, v) => updateAddon(id, v),
    remove: removeAddon,
    invalidate: [tripKeys.one(tripId)],
    saveFallback: 'Sorry, the add-on could not be saved. Please try again.',
  });

  const columns: Array<Column<Addon>> = [
    {
      key: 'name',
      label: 'Add-on',
      cell: (a) => (
        <>
          {a.name} {a.invoiced && <ToneBadge tone="neutral">Invoiced</ToneBadge>}
        </>
      ),
    },
    { key: 'price', label: 'Price', align: 'right', cell: (a) => formatMoney(a.price) },
    { key: 'bookings', label: 'Bookings', align: 'right', cell: (a) => a.bookings_count },
    {
      key: 'actions',
      label: 'Actions',
      hidden: !editable,
      cell: (a) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => ed.startEdit(a)} aria-label={`Edit ${a.name}`}>
            Edit
          </Button>
          {!a.invoiced && (
            <DestructiveButton
              size="xs"
              label="Remove"
              ariaLabel={`Remove ${a.name}`}
              message={`Are you sure you want to remove ${a.name}?`}
              confirmLabel="Yes, Remove the Add-on"
              cancelLabel="No, Cancel"
              onConfirm={() => ed.remove(a)}
            />
          )}
        </Group>
      ),
    },
  ];

  return (
    <TripPanel title="Add-ons" failure={ed.failure}>
      <DataTable
        columns={columns}
        query={addons}
        failed="The add-ons could not be loaded. Please refresh the page and try again."
        rowKey={(a) => a.id}
        empty="This trip has no add-ons."
        rowProps={(a) => editingRow(ed.editing?.id === a.id)}
      />
      {editable && (
        <form onSubmit={ed.save} noValidate aria-label={ed.editing ? 'Change add-on' : 'Add an add-on'}>
          <Group align="flex-start">
            <TextInput label="Add-on name" error={ed.errors.name?.message} w={280} {...ed.form.register('name')} />
            <TextInput
              label="Price"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              error={ed.errors.price?.message}
              description={ed.editing?.invoiced ? 'Invoiced: the price is settled' : undefined}
              readOnly={ed.editing?.invoiced}
              w={160}
              {...ed.form.register('price')}
            />
            <Button type="submit" mt={25} loading={ed.saving}>
              {ed.editing ? 'Save Add-on' : 'Add Add-on'}
            </Button>
            {ed.editing && (
              <Button variant="default" mt={25} onClick={ed.reset}>
                Cancel
              </Button>
            )}
          </Group>
        </form>
      )}
    </TripPanel>
  );
}
