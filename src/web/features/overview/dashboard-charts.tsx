import '@mantine/charts/styles.css';
import { BarChart, CompositeChart } from '@mantine/charts';
import { Button, Group, Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import type { Dashboard } from '../../../contract/dashboard.ts';
import { formatMoney, formatShortDate } from '../../lib/format.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2026-11-23 → 23 Nov */
const weekLabel = (day: string) => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`;
/** 2027-01 → Jan 2027 */
const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
const pounds = (v: number) => formatMoney(v).replace(/\.00$/, '');
const STATUS_LABELS: Record<string, string> = {
  confirmed: 'Confirmed',
  provisional: 'Provisional',
  cancelled: 'Cancelled',
};

type Row = Record<string, string | number | null>;

/**
 * One chart of the dashboard: its title, the chart (an image to assistive technology, named by
 * the title), and "Show as table", the same numbers as a table for anyone who wants them exact.
 */
function ChartCard({
  title,
  description,
  chart,
  columns,
  rows,
}: {
  title: string;
  description: string;
  chart: ReactNode;
  columns: Array<{ key: string; label: string; format?: (v: number) => string }>;
  rows: Row[];
}) {
  const [table, setTable] = useState(false);
  const id = useId();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" align="flex-start" mb="xs" wrap="nowrap">
        <div>
          <Title order={3} size="h5" id={`${id}-title`}>
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        </div>
        <Button
          size="xs"
          variant="default"
          style={{ flexShrink: 0 }}
          aria-expanded={table}
          aria-controls={`${id}-table`}
          onClick={() => setTable((v) => !v)}
        >
          {table ? 'Hide table' : 'Show as table'}
        </Button>
      </Group>
      <div role="img" aria-label={`${title}: chart (the same numbers are under Show as table)`} data-testid="chart">
        {chart}
      </div>
      {table && (
        <Table.ScrollContainer minWidth={400} mah={360} mt="sm" id={`${id}-table`}>
          <Table striped withTableBorder verticalSpacing={4} fz="sm" stickyHeader>
            <Table.Caption>{title}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c, i) => (
                  <Table.Th key={c.key} ta={i === 0 ? 'left' : 'right'}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>Nothing in this season.</Table.Td>
                </Table.Tr>
              ) : (
                rows.map((r, n) => (
                  <Table.Tr key={n}>
                    {columns.map((c, i) => (
                      <Table.Td key={c.key} ta={i === 0 ? 'left' : 'right'}>
                        {typeof r[c.key] === 'number' && c.format ? c.format(r[c.key] as number) : (r[c.key] ?? '')}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/** The dashboard's five charts, every number from the API. */
export function DashboardCharts({ data }: { data: Dashboard }) {
  const weeks = data.bookings_per_week.map((w) => ({ ...w, label: weekLabel(w.week) }));
  const money = data.money_per_week.map((w) => ({ ...w, label: weekLabel(w.week) }));
  const months = data.outstanding_by_month.map((m) => ({ ...m, label: monthLabel(m.month) }));
  const statuses = data.bookings_by_status.map((s) => ({ ...s, label: STATUS_LABELS[s.status] ?? s.status }));
  const departures = data.next_departures.map((d) => {
    const full = d.left !== null && d.left <= 0;
    return {
      ...d,
      label: `${d.name}${full ? ' (full)' : ''}`,
      places: d.capacity,
      state: d.left === null ? 'No capacity set' : full ? 'Full' : `${d.left} left`,
    };
  });
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <ChartCard
        title="Bookings made per week"
        description="The last 52 weeks, by trip type; the line is the same weeks a year before, for the season a year before"
        chart={
          <CompositeChart
            h={260}
            data={weeks}
            dataKey="label"
            withLegend
            barProps={{ stackId: 'made' }}
            series={[
              { name: 'charity', label: 'Charity', color: 'teal.6', type: 'bar' },
              { name: 'open', label: 'Open', color: 'blue.6', type: 'bar' },
              { name: 'school', label: 'School', color: 'grape.6', type: 'bar' },
              { name: 'previous_year', label: 'A year before', color: 'gray.7', type: 'line' },
            ]}
            withDots={false}
          />
        }
        columns={[
          { key: 'week', label: 'Week of' },
          { key: 'charity', label: 'Charity' },
          { key: 'open', label: 'Open' },
          { key: 'school', label: 'School' },
          { key: 'previous_year', label: 'A year before' },
        ]}
        rows={weeks.map((w) => ({ ...w, week: formatShortDate(w.week) }))}
      />
      <ChartCard
        title="Money per week"
        description="Received (payments less refunds) and invoiced, the last 52 weeks"
        chart={
          <BarChart
            h={260}
            data={money}
            dataKey="label"
            withLegend
            valueFormatter={pounds}
            series={[
              { name: 'received', label: 'Received', color: 'green.7' },
              { name: 'invoiced', label: 'Invoiced', color: 'blue.4' },
            ]}
          />
        }
        columns={[
          { key: 'week', label: 'Week of' },
          { key: 'received', label: 'Received', format: formatMoney },
          { key: 'invoiced', label: 'Invoiced', format: formatMoney },
        ]}
        rows={money.map((w) => ({ ...w, week: formatShortDate(w.week) }))}
      />
      <ChartCard
        title="Outstanding by departure month"
        description="What is still owed, by the month the trip departs: not yet due, and overdue"
        chart={
          <BarChart
            h={260}
            data={months}
            dataKey="label"
            type="stacked"
            withLegend
            valueFormatter={pounds}
            series={[
              { name: 'not_yet_due', label: 'Not yet due', color: 'blue.5' },
              { name: 'overdue', label: 'Overdue', color: 'red.7' },
            ]}
          />
        }
        columns={[
          { key: 'label', label: 'Departure month' },
          { key: 'not_yet_due', label: 'Not yet due', format: formatMoney },
          { key: 'overdue', label: 'Overdue', format: formatMoney },
        ]}
        rows={months}
      />
      <ChartCard
        title="Bookings by status and funding"
        description="The season's bookings"
        chart={
          <BarChart
            h={260}
            data={statuses}
            dataKey="label"
            type="stacked"
            withLegend
            series={[
              { name: 'self', label: 'Self', color: 'blue.6' },
              { name: 'fundraise', label: 'Fundraise', color: 'teal.6' },
              { name: 'flexi', label: 'Flexi', color: 'yellow.7' },
              { name: 'free', label: 'Free', color: 'gray.6' },
            ]}
          />
        }
        columns={[
          { key: 'label', label: 'Status' },
          { key: 'self', label: 'Self' },
          { key: 'fundraise', label: 'Fundraise' },
          { key: 'flexi', label: 'Flexi' },
          { key: 'free', label: 'Free' },
        ]}
        rows={statuses}
      />
      <ChartCard
        title="Next departures"
        description="Confirmed and provisional bookings of the next 12 departures, and places held for deposits and waiting-list offers, against each trip's places"
        chart={
          <CompositeChart
            h={300}
            data={departures}
            dataKey="label"
            withLegend
            barProps={{ stackId: 'booked' }}
            xAxisProps={{
              interval: 0,
              angle: -25,
              textAnchor: 'end',
              height: 80,
              tick: { fontSize: 11 },
              tickFormatter: (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name),
            }}
            composedChartProps={{ margin: { left: 40, right: 10, top: 5, bottom: 5 } }}
            series={[
              { name: 'confirmed', label: 'Confirmed', color: 'green.7', type: 'bar' },
              { name: 'provisional', label: 'Provisional', color: 'yellow.6', type: 'bar' },
              { name: 'held', label: 'Held', color: 'orange.7', type: 'bar' },
              { name: 'places', label: 'Places', color: 'red.7', type: 'line' },
            ]}
            strokeWidth={0}
            withDots
            dotProps={{ r: 5, strokeWidth: 2 }}
          />
        }
        columns={[
          { key: 'name', label: 'Trip' },
          { key: 'departure', label: 'Departs' },
          { key: 'confirmed', label: 'Confirmed' },
          { key: 'provisional', label: 'Provisional' },
          { key: 'held', label: 'Held' },
          { key: 'places', label: 'Places' },
          { key: 'state', label: 'Places left' },
        ]}
        rows={departures.map((d) => ({
          name: d.name,
          departure: formatShortDate(d.departure),
          confirmed: d.confirmed,
          provisional: d.provisional,
          held: d.held,
          places: d.places ?? '—',
          state: d.state,
        }))}
      />
    </SimpleGrid>
  );
}
