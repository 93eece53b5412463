import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import type { AttentionKey, Dashboard } from '../../../contract/dashboard.ts';
import { routes } from '../../../contract/paths.ts';
import type { Permission } from '../../../contract/team-constants.ts';
import { lazyComponent } from '../../components/lazy.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatMoney, formatShortDate, plural } from '../../lib/format.ts';
import { mayOpen, SETTINGS_PAGES, STAFF_NAV } from '../../lib/nav.ts';
import { useCan, useCurrentUser } from '../../lib/session.tsx';
import { useDashboard } from './api/get-dashboard.ts';

// the charts (Mantine Charts on Recharts) load after the numbers: the first visit to / stays small
const DashboardCharts = lazyComponent(() => import('./dashboard-charts.tsx').then((m) => m.DashboardCharts));

/** each card's words, and the permission its link's list needs (no link without it) */
const CARDS: Record<
  AttentionKey,
  { title: string; describe: (count: number) => string; link: string; needs: Permission }
> = {
  overdue: {
    title: 'Overdue payments',
    describe: (n) => `${plural(n, 'invoice or instalment', 'invoices and instalments')} past their due date`,
    link: 'Show them in Money',
    needs: 'finance',
  },
  refunds: {
    title: 'Refunds owed',
    describe: (n) => `${plural(n, 'refund')} owed back within 3 days or late`,
    link: 'Show them in Money',
    needs: 'finance',
  },
  asks: {
    title: 'Requests from travellers',
    describe: (n) => `${plural(n, 'ask', 'asks')} to cancel or change, waiting for an answer`,
    link: 'Show them',
    needs: 'bookings',
  },
  not_ready: {
    title: 'Travellers not ready',
    describe: (n) => `${plural(n, 'traveller')} departing in the next 8 weeks with a check not passed`,
    link: 'Show them',
    needs: 'bookings',
  },
  consent: {
    title: 'Pupils without consent',
    describe: (n) => `${plural(n, 'pupil')} departing in the next 8 weeks without a parent’s consent`,
    link: 'Show them',
    needs: 'bookings',
  },
  provisional: {
    title: 'Provisional for 14 days',
    describe: (n) => `${plural(n, 'booking')} provisional for 14 days or more`,
    link: 'Show them in Bookings',
    needs: 'bookings',
  },
  behind: {
    title: 'Fundraisers behind',
    describe: (n) => `${plural(n, 'fundraiser')} behind a milestone`,
    link: 'Show them in Bookings',
    needs: 'bookings',
  },
  failed: {
    title: 'Failed jobs and emails',
    describe: (n) => `${plural(n, 'job or email', 'jobs and emails')} failed`,
    link: 'Show them in Jobs',
    needs: 'settings',
  },
};

/** The home page (`/`): the dashboard is money (finance read); anyone else is welcomed with what they may open. */
export default function DashboardPage() {
  const may = useCan();
  return may('finance', 'read') ? <DashboardView /> : <Welcome />;
}

/** For a member whose team does not read finance: a welcome, and a link to each screen their team may read. */
function Welcome() {
  const user = useCurrentUser();
  const may = useCan();
  const pages = [...STAFF_NAV, ...SETTINGS_PAGES].filter((p) => mayOpen(p.name, may));
  return (
    <Stack>
      <Title order={1}>Welcome{user ? `, ${user.first_name}` : ''}</Title>
      <Text c="dimmed">
        {pages.length
          ? 'Where would you like to start?'
          : 'Your team cannot open any screen yet: ask a member of Full access to give it some permissions.'}
      </Text>
      {pages.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="nav" aria-label="Your screens">
          {pages.map((p) => (
            <Paper key={p.name} withBorder radius="md" p="md">
              <Anchor component={Link} to={routes[p.name]} fw={600}>
                {p.label}
              </Anchor>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/**
 * The dashboard (`/`): what needs attention today, each a count leading to the list of
 * those rows, then the season's bookings and money as charts, each with its table. The season is
 * the trips departing between two days, kept in the address so a view can be shared.
 */
function DashboardView() {
  const [params, setParams] = useSearchParams();
  const season = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const query = useDashboard(season);
  const data = query.data;
  const errors = query.error instanceof ApiError ? query.error.errors : undefined;
  const setSeason = (key: 'from' | 'to', value: string) => {
    // from the address as it is now: two changes in a row must not undo each other
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Dashboard</Title>
          <Text c="dimmed">
            {data ? `Trips departing ${formatShortDate(data.season.from)} to ${formatShortDate(data.season.to)}` : ' '}
          </Text>
        </div>
        <Paper
          withBorder
          radius="md"
          p="sm"
          component="form"
          role="search"
          aria-label="Season"
          onSubmit={(e) => e.preventDefault()}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              type="date"
              label="Departing from"
              value={season.from || data?.season.from || ''}
              onChange={(e) => setSeason('from', e.currentTarget.value)}
              error={errors?.from?.[0]}
              w={170}
            />
            <TextInput
              type="date"
              label="Departing to"
              value={season.to || data?.season.to || ''}
              onChange={(e) => setSeason('to', e.currentTarget.value)}
              error={errors?.to?.[0]}
              w={170}
            />
            <Button
              variant="default"
              onClick={() => setParams(new URLSearchParams())}
              disabled={!season.from && !season.to}
            >
              Next 12 months
            </Button>
          </Group>
        </Paper>
      </Group>

      {query.isError && !errors && (
        <Alert color="red" role="alert">
          The dashboard could not be loaded. Please refresh the page and try again.
        </Alert>
      )}

      <section aria-labelledby="attention">
        <Title order={2} size="h4" id="attention" mb="sm">
          Needs attention today
        </Title>
        {data ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {data.attention.map((a) => (
              <AttentionCard key={a.key} card={a} />
            ))}
          </SimpleGrid>
        ) : (
          <Skeleton height={120} />
        )}
      </section>

      {data ? <DashboardCharts data={data} /> : <Skeleton height={600} />}
    </Stack>
  );
}

function AttentionCard({ card }: { card: Dashboard['attention'][number] }) {
  const may = useCan();
  const words = CARDS[card.key];
  const calm = card.count === 0;
  // the link only for a member whose team may read the list it opens
  const linked = !calm && may(words.needs, 'read');
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="article"
      aria-labelledby={`card-${card.key}`}
      data-testid={`attention-${card.key}`}
      bg={calm ? undefined : 'orange.0'}
    >
      <Stack gap={4}>
        <Text size="sm" fw={700} id={`card-${card.key}`}>
          {words.title}
        </Text>
        <Text fz={28} fw={700} lh={1.1}>
          {card.count.toLocaleString('en-GB')}
        </Text>
        {card.amount !== null && (
          <Text size="sm" fw={600}>
            {formatMoney(card.amount)}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {calm ? 'Nothing to do.' : words.describe(card.count)}
        </Text>
        {linked && card.departures ? (
          <Stack gap={2}>
            {card.departures.map((d) => (
              <Anchor key={d.trip_id} component={Link} to={d.href} size="sm">
                {d.name} ({formatShortDate(d.departure)}): {d.not_ready}
              </Anchor>
            ))}
          </Stack>
        ) : (
          linked && (
            <Anchor
              component={Link}
              to={card.href}
              size="sm"
              aria-label={`${words.link}: ${words.title.toLowerCase()}`}
            >
              {words.link}
            </Anchor>
          )
        )}
      </Stack>
    </Paper>
  );
}
