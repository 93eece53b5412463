import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { createCharitySchema, DEFAULT_CHARITY_TYPE } from '../../../contract/charities.ts';
import { path } from '../../../contract/paths.ts';
import { PageLoader } from '../../components/page-loader.tsx';
import { errorMessage, setFieldErrors } from '../../lib/errors.ts';
import { showFlash } from '../../lib/flash.ts';
import { charityKeys, createCharity, useCharities } from './api/charities.ts';
import { charityTypeOptions } from './charity-type-options.ts';

type AddForm = z.input<typeof createCharitySchema>;
const emptyForm: AddForm = { name: '', charity_type_id: String(DEFAULT_CHARITY_TYPE) };

export default function CharityListPage() {
  const queryClient = useQueryClient();
  const [nameInput, setNameInput] = useState('');
  const [filter, setFilter] = useState({ name: '', type: '' });
  const [adding, setAdding] = useState(false);
  const [addFailure, setAddFailure] = useState<string | null>(null);
  const charities = useCharities(filter);
  const form = useForm<AddForm, unknown, z.output<typeof createCharitySchema>>({
    resolver: zodResolver(createCharitySchema),
    defaultValues: emptyForm,
  });

  const add = form.handleSubmit(async (values) => {
    setAddFailure(null);
    try {
      await createCharity(values);
      form.reset(emptyForm);
      setAdding(false);
      await queryClient.invalidateQueries({ queryKey: charityKeys.all });
      showFlash('Charity record has been added');
    } catch (error) {
      if (!setFieldErrors(error, form.setError)) setAddFailure(errorMessage(error));
    }
  });

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
        <Button onClick={() => setAdding((v) => !v)} aria-expanded={adding}>
          Add New Charity
        </Button>
      </Group>

      {adding && (
        <Paper withBorder p="md" radius="md" component="form" onSubmit={add} noValidate aria-label="Add a charity">
          {addFailure && (
            <Alert color="red" mb="sm" role="alert">
              {addFailure}
            </Alert>
          )}
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
        </Paper>
      )}

      {charities.isPending && <PageLoader />}
      {charities.isError && (
        <Alert color="red" role="alert">
          The charities could not be loaded. Please refresh the page and try again.
        </Alert>
      )}
      {charities.data && (
        <Table striped highlightOnHover verticalSpacing="sm" aria-busy={charities.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Charity Name &amp; Type</Table.Th>
              <Table.Th>URL</Table.Th>
              <Table.Th>Logo</Table.Th>
              <Table.Th>Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {charities.data.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed" ta="center" py="md">
                    {filter.name || filter.type ? 'No charities match this search.' : 'There are no charities yet.'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {charities.data.map((charity) => (
              <Table.Tr key={charity.id}>
                <Table.Td>
                  <Text fw={600}>{charity.name}</Text>
                  <Text size="sm" c="dimmed">
                    {charity.charity_type.description}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {charity.url ? (
                    <Anchor href={charity.url} target="_blank" rel="noopener noreferrer">
                      Website
                    </Anchor>
                  ) : (
                    'N/A'
                  )}
                </Table.Td>
                <Table.Td>
                  {charity.logo_url && <img src={charity.logo_url} alt={`${charity.name} logo`} style={{ maxWidth: 150, display: 'block' }} />}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={path('charity-edit', { id: charity.id })} aria-label={`Edit ${charity.name}`}>
                    Edit
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
