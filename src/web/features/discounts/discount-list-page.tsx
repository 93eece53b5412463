import { Anchor, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import type { Discount } from '../../../contract/discounts.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { useDiscounts } from './api/discounts.ts';
import { capitalise, validityText } from './validity.ts';

/** The list's columns: charities change edits a discount, charities read only views it. */
const columnsFor = (canChange: boolean): Array<Column<Discount>> => [
  { key: 'code', label: 'Code', cell: (d) => d.code, cellProps: () => ({ ff: 'monospace', fw: 600 }) },
  { key: 'name', label: 'Description', cell: (d) => d.name },
  { key: 'amount', label: 'Value', align: 'right', cell: (d) => formatMoney(d.amount) },
  { key: 'invoice_type', label: 'Invoice Type', cell: (d) => capitalise(d.invoice_type) },
  { key: 'validity', label: 'Validity', cell: (d) => validityText(d) },
  {
    key: 'edit',
    label: canChange ? 'Edit' : 'View',
    cell: (d) => (
      <Anchor
        component={Link}
        to={path('discount-edit', { discountID: d.id })}
        aria-label={`${canChange ? 'Edit' : 'View'} ${d.code}`}
      >
        {canChange ? 'Edit' : 'View'}
      </Anchor>
    ),
  },
];

export default function DiscountListPage() {
  const may = useCan();
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const discounts = useDiscounts(keyword);

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>Discounts</Title>
        {may('charities') && (
          <Button component={Link} to={path('discount-new')}>
            Add New
          </Button>
        )}
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

      <DataTable
        columns={columnsFor(may('charities'))}
        query={discounts}
        rowKey={(d) => d.id}
        failed="The discounts could not be loaded. Please refresh the page and try again."
        empty={keyword ? 'No discounts match this search.' : 'There are no discounts yet.'}
      />
    </Stack>
  );
}
