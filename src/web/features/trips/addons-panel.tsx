import { Alert, Badge, Button, Group, Paper, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Addon } from '../../../contract/trips.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage, fieldErrors, joinMessages } from '../../lib/errors.ts';
import { formatMoney } from '../../lib/format.ts';
import { addAddon, removeAddon, tripKeys, updateAddon, useAddons } from './api/trips.ts';

export function AddonsPanel({ tripId, editable }: { tripId: number; editable: boolean }) {
  const queryClient = useQueryClient();
  const addons = useAddons(tripId);
  const [editing, setEditing] = useState<Addon | null>(null);
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Addon | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: tripKeys.addons(tripId) });

  const reset = () => {
    setEditing(null);
    setName('');
    setPrice('');
    setErrors({});
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    setFailure(null);
    try {
      if (editing) await updateAddon(editing.id, { name, price });
      else await addAddon(tripId, { name, price });
      reset();
      await refresh();
    } catch (error) {
      setErrors(fieldErrors(error));
      if (!(error instanceof ApiError && error.errors)) setFailure(errorMessage(error));
    }
  };

  const remove = async () => {
    if (!removing) return;
    setFailure(null);
    try {
      await removeAddon(removing.id);
      await refresh();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} size="h4" mb="sm">
        Add-ons
      </Title>
      {failure && (
        <Alert color="red" role="alert" mb="sm">
          {failure}
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
                  {a.invoiced && (
                    <Badge size="sm" variant="outline" color="gray.8">
                      Invoiced
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatMoney(a.price)}</Table.Td>
                <Table.Td ta="right">{a.bookings_count}</Table.Td>
                <Table.Td>
                  {editable && (
                    <Group gap="xs">
                      <Button size="xs" variant="default" onClick={() => { setEditing(a); setName(a.name); setPrice(a.price.toFixed(2)); setErrors({}); }}>
                        Edit
                      </Button>
                      {!a.invoiced && (
                        <Button size="xs" variant="light" color="red" onClick={() => setRemoving(a)}>
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
        <form onSubmit={save} noValidate aria-label={editing ? 'Change add-on' : 'Add an add-on'}>
          <Group align="flex-start">
            <TextInput label="Add-on name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={joinMessages(errors.name)} w={280} />
            <TextInput
              label="Price"
              leftSection="£"
              placeholder="0.00"
              inputMode="decimal"
              value={price}
              onChange={(e) => setPrice(e.currentTarget.value)}
              error={joinMessages(errors.price)}
              description={editing?.invoiced ? 'Invoiced: the price is settled' : undefined}
              readOnly={editing?.invoiced}
              w={160}
            />
            <Button type="submit" mt={25}>
              {editing ? 'Save Add-on' : 'Add Add-on'}
            </Button>
            {editing && (
              <Button variant="default" mt={25} onClick={reset}>
                Cancel
              </Button>
            )}
          </Group>
        </form>
      )}
      <ConfirmDialog
        opened={removing !== null}
        message={`Are you sure you want to remove ${removing?.name ?? 'this add-on'}?`}
        confirmLabel="Yes, Remove the Add-on"
        cancelLabel="No, Cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={remove}
      />
    </Paper>
  );
}
