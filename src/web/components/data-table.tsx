import { Alert, Skeleton, Table, Text, UnstyledButton, type TableProps } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import type { Paged } from '../../contract/common.ts';
import { Pagination } from './pagination.tsx';

/** One column of a DataTable: what it is called, how a row shows in it, and how it sorts. */
export type Column<T> = {
  key: string;
  label: ReactNode;
  cell: (row: T) => ReactNode;
  /** the sort field the server knows this column by; the header becomes a button */
  sort?: string;
  align?: 'left' | 'right' | 'center';
  hidden?: boolean;
  /** props for the cell (a bold name, nowrap dates) */
  cellProps?: (row: T) => Record<string, unknown>;
};

export type Sort = { field: string; dir: 'asc' | 'desc' };

type Props<T> = {
  columns: Array<Column<T>>;
  /** the rows, or a page of them (then the pagination and "Showing x to y of z" are drawn) */
  data?: T[] | Paged<T>;
  rowKey: (row: T) => string | number;
  isPending?: boolean;
  isFetching?: boolean;
  /** the error alert's text when loading failed */
  error?: string | null;
  /** what the table says when there are no rows */
  empty: ReactNode;
  sort?: Sort;
  onSort?: (field: string) => void;
  page?: number;
  onPage?: (page: number) => void;
  /** "users", "bookings": the word of the pagination summary */
  noun?: string;
  totalIsEstimate?: boolean;
  /** a row's props (highlight, data attributes) */
  rowProps?: (row: T) => Record<string, unknown>;
  /** a full-width row under a row (its detail, shown on demand), or null */
  rowDetail?: (row: T) => ReactNode;
  tableProps?: TableProps;
  caption?: ReactNode;
  /** the list's query, in place of data, isPending and isFetching (those given still win) */
  query?: { data?: T[] | Paged<T>; isPending: boolean; isFetching: boolean; isError: boolean };
  /** with `query`: the error alert's text when it fails */
  failed?: string;
};

const isPaged = <T,>(data: T[] | Paged<T>): data is Paged<T> => !Array.isArray(data);

/**
 * The one list of the app (DESIGN.md): columns as data, a loading skeleton, the error alert, the
 * empty text, sortable headers with aria-sort (the ▲/▼ glyph hidden from the accessible name),
 * and the 5-link pagination.
 */
export function DataTable<T>({
  columns,
  data,
  rowKey,
  isPending,
  isFetching,
  error,
  empty,
  sort,
  onSort,
  page,
  onPage,
  noun = 'records',
  totalIsEstimate,
  rowProps,
  rowDetail,
  tableProps,
  caption,
  query,
  failed,
}: Props<T>) {
  const shown = columns.filter((c) => !c.hidden);
  if (query) {
    data ??= query.data;
    isPending ??= query.isPending;
    isFetching ??= query.isFetching;
    error ??= query.isError ? failed : null;
  }
  if (error) {
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  }
  const rows = data ? (isPaged(data) ? data.data : data) : [];
  return (
    <>
      {/* a table wider than a phone scrolls sideways: its scroller takes the focus, so a keyboard can scroll it */}
      <Table.ScrollContainer
        minWidth={Math.min(900, shown.length * 130)}
        scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
      >
        <Table
          striped
          highlightOnHover
          verticalSpacing="sm"
          aria-busy={Boolean(isPending || isFetching)}
          {...tableProps}
        >
          {caption && <Table.Caption>{caption}</Table.Caption>}
          <Table.Thead>
            <Table.Tr>
              {shown.map((c) => {
                const sorted = c.sort !== undefined && sort?.field === c.sort;
                return (
                  <Table.Th
                    key={c.key}
                    ta={c.align}
                    aria-sort={sorted ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {c.sort !== undefined && onSort ? (
                      <UnstyledButton onClick={() => onSort(c.sort!)} fw={700} fz="sm">
                        {c.label}
                        {/* aria-sort says the order; the glyph is for the eye only */}
                        {sorted && <span aria-hidden="true"> {sort!.dir === 'asc' ? '▲' : '▼'}</span>}
                      </UnstyledButton>
                    ) : (
                      c.label
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {isPending && !data
              ? Array.from({ length: 3 }, (_, i) => (
                  <Table.Tr key={`loading-${i}`}>
                    {shown.map((c) => (
                      <Table.Td key={c.key}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={shown.length}>
                      <Text c="dimmed" ta="center" py="md">
                        {empty}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
            {rows.map((row) => {
              const detail = rowDetail?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <Table.Tr {...rowProps?.(row)}>
                    {shown.map((c) => (
                      <Table.Td key={c.key} ta={c.align} {...c.cellProps?.(row)}>
                        {c.cell(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {detail != null && detail !== false && (
                    <Table.Tr>
                      <Table.Td colSpan={shown.length}>{detail}</Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && isPaged(data) && page !== undefined && onPage && (
        <Pagination
          page={page}
          lastPage={data.last_page}
          onChange={onPage}
          from={data.from}
          to={data.to}
          total={data.total}
          totalIsEstimate={totalIsEstimate}
          noun={noun}
        />
      )}
    </>
  );
}
