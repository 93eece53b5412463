import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { path } from '../../../contract/paths.ts';
import { useState } from 'react';
import type { FailedJob, JobsOverview } from '../../../contract/jobs.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { ServerAlert } from '../../components/form-frame.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { jobKeys, retryJob, useJobs } from './api/jobs.ts';
import { cronInWords } from './cron-words.ts';

type Queue = JobsOverview['queues'][number];

const count = (n: number) => n.toLocaleString('en-GB');
const nowrap = () => ({ style: { whiteSpace: 'nowrap' } });

function Schedule({ cron }: { cron: string | null }) {
  if (!cron) {
    return (
      <Text size="sm" c="dimmed">
        When sent
      </Text>
    );
  }
  const words = cronInWords(cron);
  return words ? (
    <>
      <Text size="sm">{words}</Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {cron}
      </Text>
    </>
  ) : (
    <Text size="sm" ff="monospace">
      {cron}
    </Text>
  );
}

const queueColumns: Array<Column<Queue>> = [
  { key: 'name', label: 'Queue', cell: (q) => <Text fw={600}>{q.name}</Text> },
  { key: 'queued', label: 'Queued', align: 'right', cell: (q) => count(q.queued) },
  { key: 'deferred', label: 'Deferred', align: 'right', cell: (q) => count(q.deferred) },
  { key: 'active', label: 'Active', align: 'right', cell: (q) => count(q.active) },
  {
    key: 'failed',
    label: 'Failed',
    align: 'right',
    cell: (q) => (
      <Text span fw={q.failed ? 700 : undefined} c={q.failed ? 'red.8' : undefined} inherit>
        {count(q.failed)}
      </Text>
    ),
  },
  { key: 'schedule', label: 'Schedule (UK time)', cell: (q) => <Schedule cron={q.schedule} /> },
];

/** /admin/jobs: the job queue for Administrators — each queue's counts and schedule, and the jobs that failed after their retries. */
export default function JobsPage() {
  const may = useCan();
  // the jobs are settings: change to retry one
  const canRetry = may('settings');
  const jobs = useJobs();
  const [retrying, setRetrying] = useState<string | null>(null);
  // busy only when asked: the count every 10 seconds does not flicker the button
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    await jobs.refetch();
    setRefreshing(false);
  };
  const retry = useFormMutation({
    mutationFn: retryJob,
    invalidate: [jobKeys.overview],
    flash: (r) => ({ text: r.message, on: 'show' }),
    fallback: 'Sorry, the job could not be run again. Please try again.',
  });
  const runAgain = async (job: FailedJob) => {
    setRetrying(job.id);
    // a job that could not be retried may have been retried (or removed) by someone else: count again
    if (!(await retry.submit(job))) void jobs.refetch();
    setRetrying(null);
  };

  const failedColumns: Array<Column<FailedJob>> = [
    { key: 'queue', label: 'Queue', cell: (j) => <Text fw={600}>{j.queue}</Text>, cellProps: nowrap },
    {
      key: 'error',
      label: 'Error',
      cell: (j) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {j.error}
        </Text>
      ),
    },
    { key: 'attempts', label: 'Attempts', align: 'right', cell: (j) => count(j.attempts) },
    {
      key: 'failed_at',
      label: 'Failed at',
      cell: (j) => formatDateTime(j.failed_at ?? j.created_at),
      cellProps: nowrap,
    },
    {
      key: 'action',
      label: 'Action',
      hidden: !canRetry,
      cell: (j) => (
        <Button
          size="xs"
          variant="light"
          loading={retrying === j.id}
          disabled={retrying !== null && retrying !== j.id}
          onClick={() => void runAgain(j)}
          aria-label={`Retry the ${j.queue} job that failed at ${formatDateTime(j.failed_at ?? j.created_at)}`}
        >
          Retry
        </Button>
      ),
    },
  ];

  // a server started without the queue (WORKERS and the queue are off) says so with 503
  const notRunning = jobs.error instanceof ApiError && jobs.error.status === 503 ? jobs.error.message : null;
  const loadFailed =
    jobs.isError && !notRunning ? 'The job queue could not be read. Please refresh the page and try again.' : null;

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Jobs</Title>
          <Text c="dimmed" size="sm">
            The work Tripdesk does by itself: automatic invoices, reminders, the evening digest, the nightly erasure of
            personal details after return (
            <Anchor component={Link} to={path('admin-retention')} underline="always">
              what the next run will erase
            </Anchor>
            ) and housekeeping. Counted again every 10 seconds.
          </Text>
        </div>
        <Group gap="sm">
          {jobs.dataUpdatedAt > 0 && (
            <Text size="xs" c="dimmed">
              Counted at {new Date(jobs.dataUpdatedAt).toLocaleTimeString('en-GB', { timeZone: 'Europe/London' })}
            </Text>
          )}
          <Button variant="default" onClick={() => void refresh()} loading={refreshing}>
            Refresh
          </Button>
        </Group>
      </Group>

      {notRunning ? (
        <Alert color="yellow" variant="light" role="alert">
          {notRunning}
        </Alert>
      ) : (
        <>
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="queues-heading">
            <Title order={2} size="h4" id="queues-heading" mb="xs">
              Queues
            </Title>
            <DataTable
              columns={queueColumns}
              data={jobs.data?.queues}
              isPending={jobs.isPending}
              error={loadFailed}
              rowKey={(q) => q.name}
              empty="There are no queues."
              caption="Queued counts every job waiting to run, including those deferred to a later time."
              tableProps={{ highlightOnHover: false, captionSide: 'bottom' }}
            />
          </Paper>

          {!loadFailed && (
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="failed-heading">
              <Title order={2} size="h4" id="failed-heading">
                Failed jobs
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                Jobs that failed after all their retries, newest first.{canRetry && ' Retry runs one again.'}
              </Text>
              <Stack gap="sm">
                <ServerAlert failure={retry.failure} variant="light" />
                <DataTable
                  columns={failedColumns}
                  data={jobs.data?.failed}
                  isPending={jobs.isPending}
                  rowKey={(j) => j.id}
                  empty="No job has failed."
                  tableProps={{ highlightOnHover: false, verticalSpacing: 'xs' }}
                />
              </Stack>
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
