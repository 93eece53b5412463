import { Alert, Button, Group, Paper, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Addon } from '../../../contract/trips.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ToneBadge } from '../../components/status-badge.tsx';
import { joinMessages } from '../../lib/errors.ts';
import { formatMoney } from '../../lib/format.ts';
import { addAddon, removeAddon, tripKeys, updateAddon, useAddons } from './api/trips.ts';
import { useRowEditor } from './use-row-editor.ts';

export function AddonsPanel({ tripId, editable }: { tripId: number; editable: boolean }) {
  const queryClient = useQueryClient();
  const addons = useAddons(tripId);
  const ed = useRowEditor<Addon, { name: string; price: string }>({
    empty: { name: '', price: '' },
    toValues: (a) => ({ name: a.name, price: a.price.toFixed(2) }),
    create: (v) => addAddon(tripId, v),
    update: (id, v) => updateAddon(id, v),
    remove: removeAddon,
    refresh: () => queryClient.invalidateQueries({ queryKey: tripKeys.addons(tripId) }),
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        Add-ons
      </Title>
      {ed.failure && (
        <Alert color="red" role="alert" mb="sm">
          {ed.failure}
        </Alert>
      )}
      {addons.data && addons.data.length === 0 && <Text c="dimmed">This trip has no add-ons.</Text>}
      {addons.data && addons.data.length > 0 && (
        <Table mb="md">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Add-on</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th ta="right">Bookings</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {addons.data.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>
                  {a.name}{' '}
                  {a.invoiced && <ToneBadge tone="neutral">Invoiced</ToneBadge>}
                </Table.Td>
                <Table.Td ta="right">{formatMoney(a.price)}</Table.Td>
                <Table.Td ta="right">{a.bookings_count}</Table.Td>
                <Table.Td>
                  {editable && (
                    <Group gap="xs">
                      <Button size="xs" variant="default" onClick={() => ed.startEdit(a)}>
                        Edit
                      </Button>
                      {!a.invoiced && (
                        <Button size="xs" variant="light" color="red" onClick={() => ed.setRemoving(a)}>
                          Remove
                        </Button>
                      )}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editable && (
        <form onSubmit={ed.save} noValidate aria-label={ed.editing ? 'Change add-on' : 'Add an add-on'}>
          <Group align="flex-start">
            <TextInput label="Add-on name" value={ed.values.name} onChange={(e) => ed.set('name', e.currentTarget.value)} error={joinMessages(ed.errors.name)} w={280} />
            <TextInput
              label="Price"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              value={ed.values.price}
              onChange={(e) => ed.set('price', e.currentTarget.value)}
              error={joinMessages(ed.errors.price)}
              description={ed.editing?.invoiced ? 'Invoiced: the price is settled' : undefined}
              readOnly={ed.editing?.invoiced}
              w={160}
            />
            <Button type="submit" mt={25}>
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
      <ConfirmDialog
        opened={ed.removing !== null}
        message={`Are you sure you want to remove ${ed.removing?.name ?? 'this add-on'}?`}
        confirmLabel="Yes, Remove the Add-on"
        cancelLabel="No, Cancel"
        onCancel={() => ed.setRemoving(null)}
        onConfirm={ed.confirmRemove}
      />
    </Paper>
  );
}
