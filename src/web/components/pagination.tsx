import { Button, Group, Text } from '@mantine/core';

/** Spec §9: at most 5 page links, a window around the current page. */
export function pageWindow(current: number, last: number, size = 5): number[] {
  const count = Math.min(size, Math.max(last, 1));
  let start = Math.max(1, current - Math.floor(size / 2));
  start = Math.min(start, Math.max(1, last - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** "Showing 1 to 25 of 1,234 bookings", "… of about 710,000 bookings" when the total is an estimate. */
export function pageSummary(
  from: number | null | undefined,
  to: number | null | undefined,
  total: number | undefined,
  noun: string,
  totalIsEstimate = false,
): string {
  return total
    ? `Showing ${from} to ${to} of ${totalIsEstimate ? 'about ' : ''}${total.toLocaleString('en-GB')} ${noun}`
    : `No ${noun}`;
}

type Props = {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  from?: number | null;
  to?: number | null;
  total?: number;
  /** the total is an estimate: shown as "about N" */
  totalIsEstimate?: boolean;
  noun?: string;
};

export function Pagination({
  page,
  lastPage,
  onChange,
  from,
  to,
  total,
  totalIsEstimate = false,
  noun = 'records',
}: Props) {
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {pageSummary(from, to, total, noun, totalIsEstimate)}
      </Text>
      {lastPage > 1 && (
        <Group gap={4} component="nav" aria-label="Pages">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onChange(page - 1)}>
            Previous
          </Button>
          {pageWindow(page, lastPage).map((p) => (
            <Button
              key={p}
              size="xs"
              variant={p === page ? 'filled' : 'default'}
              aria-current={p === page ? 'page' : undefined}
              aria-label={`Page ${p}`}
              onClick={() => onChange(p)}
            >
              {p}
            </Button>
          ))}
          <Button variant="default" size="xs" disabled={page >= lastPage} onClick={() => onChange(page + 1)}>
            Next
          </Button>
        </Group>
      )}
    </Group>
  );
}
