import { Anchor, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { createCharitySchema, Charity } from '../../../contract/charities.ts';
import { DEFAULT_CHARITY_TYPE } from '../../../contract/constants.ts';
import { path } from '../../../contract/paths.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { ServerAlert } from '../../components/form-frame.tsx';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { charityKeys, createCharity, useCharities } from './api/charities.ts';
import { charityTypeOptions } from './charity-type-options.ts';

type AddForm = z.input<typeof createCharitySchema>;
const emptyForm: AddForm = { name: '', charity_type_id: String(DEFAULT_CHARITY_TYPE) };

/** The list's columns: charities change edits a charity, charities read only views it. */
const columnsFor = (canChange: boolean): Array<Column<Charity>> => [
  {
    key: 'name',
    label: 'Charity Name & Type',
    cell: (c) => (
      <>
        <Text fw={600}>{c.name}</Text>
        <Text size="sm" c="dimmed">
          {c.charity_type.description}
        </Text>
      </>
    ),
  },
  {
    key: 'url',
    label: 'URL',
    cell: (c) =>
      c.url ? (
        <Anchor href={c.url} target="_blank" rel="noopener noreferrer">
          Website
        </Anchor>
      ) : (
        'N/A'
      ),
  },
  {
    key: 'logo',
    label: 'Logo',
    cell: (c) =>
      c.logo_url && <img src={c.logo_url} alt={`${c.name} logo`} style={{ maxWidth: 150, display: 'block' }} />,
  },
  {
    key: 'action',
    label: 'Action',
    cell: (c) => (
      <Anchor
        component={Link}
        to={path('charity-edit', { id: c.id })}
        aria-label={`${canChange ? 'Edit' : 'View'} ${c.name}`}
      >
        {canChange ? 'Edit' : 'View'}
      </Anchor>
    ),
  },
];

export default function CharityListPage() {
  const may = useCan();
  const [nameInput, setNameInput] = useState('');
  const [filter, setFilter] = useState({ name: '', type: '' });
  const [adding, setAdding] = useState(false);
  const charities = useCharities(filter);
  const form = useForm<AddForm, unknown, z.output<typeof createCharitySchema>>({
    resolver: lazyZodResolver(() => import('../../../contract/charities.ts').then((m) => m.createCharitySchema)),
    defaultValues: emptyForm,
  });

  const creating = useFormMutation({
    mutationFn: createCharity,
    invalidate: [charityKeys.all],
    setError: form.setError,
    alertWithFieldErrors: false,
    flash: () => ({ text: 'Charity record has been added', on: 'show' }),
    fallback: 'Sorry, the charity could not be added. Please try again.',
    onSuccess: () => {
      form.reset(emptyForm);
      setAdding(false);
    },
  });
  const add = form.handleSubmit((values) => creating.submit(values));

  const reset = () => {
    setNameInput('');
    setFilter({ name: '', type: '' });
  };

  return (
    <Stack>
      <Title order={1}>Charities</Title>

      <Group justify="space-between" align="flex-end">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Search by name"
            placeholder="Charity name"
            value={nameInput}
            onChange={(e) => setNameInput(e.currentTarget.value)}
            onKeyUp={(e) => {
              const name = e.currentTarget.value;
              setFilter((f) => (f.name === name ? f : { ...f, name }));
            }}
          />
          <NativeSelect
            label="Type"
            aria-label="Filter by Type"
            value={filter.type}
            onChange={(e) => {
              const type = e.currentTarget.value;
              setFilter((f) => ({ ...f, type }));
            }}
            data={[{ value: '', label: 'Filter by Type' }, ...charityTypeOptions]}
          />
          <Button variant="default" onClick={reset}>
            Reset
          </Button>
        </Group>
        {may('charities') && (
          <Button onClick={() => setAdding((v) => !v)} aria-expanded={adding}>
            Add New Charity
          </Button>
        )}
      </Group>

      {adding && may('charities') && (
        <Paper withBorder p="md" radius="md" component="form" onSubmit={add} noValidate aria-label="Add a charity">
          <Stack gap="sm">
            <ServerAlert failure={creating.failure} variant="light" />
            <Group align="flex-start" gap="sm">
              <TextInput
                label="Charity Name"
                required
                autoFocus
                style={{ flex: 1 }}
                error={form.formState.errors.name?.message}
                {...form.register('name')}
              />
              <NativeSelect
                label="Type of Charity"
                data={charityTypeOptions}
                error={form.formState.errors.charity_type_id?.message}
                {...form.register('charity_type_id')}
              />
              <Button type="submit" mt={25} loading={form.formState.isSubmitting}>
                Add Charity
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      <DataTable
        columns={columnsFor(may('charities'))}
        query={charities}
        rowKey={(c) => c.id}
        failed="The charities could not be loaded. Please refresh the page and try again."
        empty={filter.name || filter.type ? 'No charities match this search.' : 'There are no charities yet.'}
      />
    </Stack>
  );
}
