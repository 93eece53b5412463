import { Alert, Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import { PageLoader } from '../../components/page-loader.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useDiscounts } from './api/discounts.ts';
import { capitalise, validityText } from './validity.ts';

export default function DiscountListPage() {
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const discounts = useDiscounts(keyword);

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>Discounts</Title>
        <Button component={Link} to={path('discount-new')}>
          Add New
        </Button>
      </Group>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setKeyword(input.trim());
        }}
      >
        <TextInput
          aria-label="Search discounts by code or description"
          placeholder="Search..."
          value={input}
          onChange={(e) => setInput(e.currentTarget.value)}
          maw={420}
          description="Press Enter to search codes and descriptions"
        />
      </form>

      {discounts.isPending && <PageLoader />}
      {discounts.isError && (
        <Alert color="red" role="alert">
          The discounts could not be loaded. Please refresh the page and try again.
        </Alert>
      )}
      {discounts.data && (
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Code</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Value</Table.Th>
              <Table.Th>Invoice Type</Table.Th>
              <Table.Th>Validity</Table.Th>
              <Table.Th>Edit</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {discounts.data.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" ta="center" py="md">
                    {keyword ? 'No discounts match this search.' : 'There are no discounts yet.'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {discounts.data.map((discount) => (
              <Table.Tr key={discount.id}>
                <Table.Td ff="monospace" fw={600}>
                  {discount.code}
                </Table.Td>
                <Table.Td>{discount.name}</Table.Td>
                <Table.Td ta="right">{formatMoney(discount.amount)}</Table.Td>
                <Table.Td>{capitalise(discount.invoice_type)}</Table.Td>
                <Table.Td>{validityText(discount)}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={path('discount-edit', { discountID: discount.id })} aria-label={`Edit ${discount.code}`}>
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
