import { Alert, Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { REPORT_NAMES, REPORT_PREVIEW_ROWS, REPORTS, type ReportName } from '../../../contract/report-constants.ts';
import type { Report } from '../../../contract/reports.ts';
import { api, ApiError, withQuery } from '../../lib/api.ts';
import { formatMoney, formatShortDate } from '../../lib/format.ts';

const isName = (v: string | null): v is ReportName => (REPORT_NAMES as readonly string[]).includes(v ?? '');

function cell(kind: Report['columns'][number]['kind'], v: string | number | null | undefined) {
  if (v === null || v === undefined) return '';
  if (kind === 'money') return formatMoney(Number(v));
  if (kind === 'date') return formatShortDate(String(v));
  if (kind === 'int') return Number(v).toLocaleString('en-GB');
  return String(v);
}

/**
 * /reports: the finance reports — payments received, aged debt, the trip profit view
 * and discount usage. The report and its days are kept in the address; the screen shows the
 * first rows and the totals of all of them, and downloads the whole report as an .xlsx (each
 * download is in the History).
 */
export default function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const name: ReportName = isName(params.get('report')) ? (params.get('report') as ReportName) : 'payments';
  const days = REPORTS[name].days;
  const query =
    days === 'range' ? { from: params.get('from') ?? '', to: params.get('to') ?? '' } : { at: params.get('at') ?? '' };
  const report = useQuery({
    queryKey: ['reports', name, query],
    queryFn: () => api<Report>(`/api/reports/${name}`, { query }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = report.data?.name === name ? report.data : undefined;
  const errors = report.error instanceof ApiError ? report.error.errors : undefined;
  const set = (changes: Record<string, string>) => {
    // from the address as it is now: two changes in a row must not undo each other
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };

  return (
    <Stack>
      <Title order={1}>Reports</Title>
      <Paper
        withBorder
        radius="md"
        p="md"
        component="form"
        role="search"
        aria-label="Choose a report"
        onSubmit={(e) => e.preventDefault()}
      >
        <Group align="flex-end">
          <NativeSelect
            label="Report"
            data={REPORT_NAMES.map((r) => ({ value: r, label: REPORTS[r].title }))}
            value={name}
            onChange={(e) => set({ report: e.currentTarget.value })}
            w={220}
          />
          {days === 'range' ? (
            <>
              <TextInput
                type="date"
                label="From"
                value={query.from || data?.params.from || ''}
                onChange={(e) => set({ from: e.currentTarget.value })}
                error={errors?.from?.[0]}
                w={170}
              />
              <TextInput
                type="date"
                label="To"
                value={query.to || data?.params.to || ''}
                onChange={(e) => set({ to: e.currentTarget.value })}
                error={errors?.to?.[0]}
                w={170}
              />
            </>
          ) : (
            <TextInput
              type="date"
              label="Aged on"
              value={query.at || data?.params.at || ''}
              onChange={(e) => set({ at: e.currentTarget.value })}
              error={errors?.at?.[0]}
              w={170}
            />
          )}
          <Button
            component="a"
            href={withQuery(`/api/reports/${name}`, { ...query, format: 'xlsx' })}
            download
            ml="auto"
            disabled={!data}
          >
            Download .xlsx
          </Button>
        </Group>
        <Text size="sm" c="dimmed" mt="xs">
          {REPORTS[name].description}
        </Text>
      </Paper>

      {report.isError && !errors && (
        <Alert color="red" role="alert">
          The report could not be made. Please refresh the page and try again.
        </Alert>
      )}
      {data && (
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="report-title">
          <Title order={2} size="h4" id="report-title">
            {data.title}
          </Title>
          <Text size="sm" c="dimmed" mb="sm" role="status">
            {data.covers}.{' '}
            {data.total_rows > data.rows.length
              ? `The first ${REPORT_PREVIEW_ROWS} of ${data.total_rows.toLocaleString('en-GB')} rows; the download has them all.`
              : `${data.total_rows.toLocaleString('en-GB')} ${data.total_rows === 1 ? 'row' : 'rows'}.`}
          </Text>
          <Table.ScrollContainer minWidth={600}>
            <Table striped withTableBorder verticalSpacing={6} fz="sm">
              <Table.Caption>{`${data.title}: ${data.covers}`}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {data.columns.map((c) => (
                    <Table.Th key={c.key} ta={c.kind === 'text' ? 'left' : 'right'}>
                      {c.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={data.columns.length}>Nothing in these days.</Table.Td>
                  </Table.Tr>
                ) : (
                  data.rows.map((r, n) => (
                    <Table.Tr key={n}>
                      {data.columns.map((c) => (
                        <Table.Td
                          key={c.key}
                          ta={c.kind === 'text' ? 'left' : 'right'}
                          style={c.kind === 'date' ? { whiteSpace: 'nowrap' } : undefined}
                        >
                          {cell(c.kind, r[c.key])}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
              {data.rows.length > 0 && (
                <Table.Tfoot>
                  <Table.Tr fw={700}>
                    {data.columns.map((c, i) => (
                      <Table.Td key={c.key} ta={c.kind === 'text' ? 'left' : 'right'}>
                        {i === 0 ? 'Total' : cell(c.kind, data.totals[c.key])}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                </Table.Tfoot>
              )}
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}
