import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Column, DataTable } from './data-table.tsx';

beforeAll(() => {
  // jsdom has neither; Mantine's scroll container and colour scheme ask for them
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as never;
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  })) as never;
});
afterEach(cleanup);

type Row = { id: number; name: string; total: number };
const columns: Array<Column<Row>> = [
  { key: 'name', label: 'Name', sort: 'name', cell: (r) => r.name },
  { key: 'total', label: 'Total', align: 'right', sort: 'total', cell: (r) => r.total },
  { key: 'secret', label: 'Hidden', hidden: true, cell: () => 'never shown' },
];
const page = {
  data: [
    { id: 1, name: 'Ann', total: 3 },
    { id: 2, name: 'Bob', total: 5 },
  ],
  total: 27,
  from: 1,
  to: 2,
  per_page: 2,
  current_page: 1,
  last_page: 14,
};
const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('DataTable', () => {
  it('draws columns as data, hides hidden ones, and pages with the summary', () => {
    wrap(
      <DataTable
        columns={columns}
        data={page}
        rowKey={(r) => r.id}
        empty="None"
        page={1}
        onPage={() => {}}
        noun="people"
      />,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Total']);
    expect(screen.getByText('Bob')).toBeTruthy();
    expect(screen.queryByText('never shown')).toBeNull();
    expect(screen.getByText('Showing 1 to 2 of 27 people')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Page \d+$/ })).toHaveLength(5);
  });

  it('says the sort with aria-sort, keeps the glyph out of the accessible name, and asks for a new sort', () => {
    const onSort = vi.fn();
    wrap(
      <DataTable
        columns={columns}
        data={page.data}
        rowKey={(r) => r.id}
        empty="None"
        sort={{ field: 'total', dir: 'desc' }}
        onSort={onSort}
      />,
    );
    const total = screen.getByRole('columnheader', { name: 'Total' });
    expect(total.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBeNull();
    expect(screen.getByRole('button', { name: 'Total' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it('shows the empty text, the error alert, or a skeleton while loading', () => {
    const { unmount } = wrap(<DataTable columns={columns} data={[]} rowKey={(r) => r.id} empty="No people yet." />);
    expect(screen.getByText('No people yet.')).toBeTruthy();
    unmount();
    wrap(
      <DataTable
        columns={columns}
        data={undefined}
        rowKey={(r) => r.id}
        empty="x"
        error="The people could not be loaded."
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('The people could not be loaded.');
    cleanup();
    wrap(<DataTable columns={columns} data={undefined} isPending rowKey={(r) => r.id} empty="x" />);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('x')).toBeNull();
  });
});
