import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { GroupInvoice, LeaderGroup, LeaderGroups as Groups } from '../../contract/groups.ts';
import { TONES, ToneBadge } from '../components/status-badge.tsx';
import { api } from '../lib/api.ts';
import { formatLongDate, formatMoney } from '../lib/format.ts';
import { AddPupil, GroupActions, ImportPupils } from './group-pupils.tsx';
import { Pending, Shell, signedInAsTraveller, StatusBadge, useMine } from './shell.tsx';

const CONSENT_WORDS = {
  given: { text: 'Consent given', tone: 'good' },
  missing: { text: 'No consent yet', tone: 'warn' },
  withdrawn: { text: 'Consent withdrawn', tone: 'bad' },
  not_needed: { text: '18 or over', tone: 'neutral' },
} as const;

/** On /my, for a group leader: the groups they lead, each opening its page. Nothing for anyone else. */
export function LeaderGroups() {
  const [groups, setGroups] = useState<Groups>([]);
  useEffect(() => {
    api<Groups>('/api/my/groups')
      .then(setGroups)
      .catch(() => setGroups([]));
  }, []);
  if (!groups.length) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="groups">
      <Title order={2} size="h3" id="groups">
        Groups you lead
      </Title>
      {groups.map((g) => (
        <Paper key={g.id} withBorder p="md" component="article" aria-labelledby={`group-${g.id}`}>
          <Stack gap="xs">
            <Title order={3} size="h4" id={`group-${g.id}`}>
              {g.school}: {g.trip.name}
            </Title>
            <Text size="sm">
              Departs {formatLongDate(g.trip.departure)} · {g.pupils} of {g.places} places taken
            </Text>
            <Button component="a" href={`/my/groups/${g.id}`} variant="light" fullWidth>
              Open this group
            </Button>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

const Tick = ({ ok, yes, no }: { ok: boolean; yes: string; no: string }) => (
  <Text size="sm" c={ok ? TONES.good.color : TONES.bad.color}>
    <span aria-hidden>{ok ? '✓ ' : '✗ '}</span>
    {ok ? yes : no}
  </Text>
);

/** When the school pays: its invoice for the group, what is paid and left, and the PDF. */
function SchoolInvoice({ invoice }: { invoice: GroupInvoice }) {
  const pupils = invoice.lines.filter((l) => !l.left).length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="school-invoice">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h4" id="school-invoice">
            The school’s invoice
          </Title>
          <ToneBadge tone={invoice.outstanding > 0 ? 'warn' : 'good'}>
            {invoice.outstanding > 0 ? 'Owing' : 'Paid'}
          </ToneBadge>
        </Group>
        <Text size="sm">
          {invoice.ref} · {pupils} pupil{pupils === 1 ? '' : 's'}
          {invoice.due_date && invoice.outstanding > 0 ? ` · due ${formatLongDate(invoice.due_date)}` : ''}
        </Text>
        <SimpleGrid cols={3} spacing="xs">
          {(
            [
              ['Total', invoice.total],
              ['Received', invoice.paid],
              ['Outstanding', invoice.outstanding],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700}>{formatMoney(value)}</Text>
            </div>
          ))}
        </SimpleGrid>
        {invoice.credit > 0 && (
          <Text size="sm">
            The school has {formatMoney(invoice.credit)} in credit for pupils who left: the office will refund it.
          </Text>
        )}
        {invoice.pay_url && (
          <Button component="a" href={invoice.pay_url} fullWidth>
            Pay {formatMoney(invoice.outstanding)} by Card
          </Button>
        )}
        <Button component="a" href={invoice.pdf_url} target="_blank" variant="light" fullWidth>
          Open the Invoice (PDF)
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * /my/groups/{id}: a group leader's page (issue 37), phone first: each pupil's money, consent,
 * form and readiness — a "medical information given" tick, never the detail.
 */
export function LeaderGroupPage({ id }: { id: number }) {
  const allowed = signedInAsTraveller();
  const url = `/api/my/groups/${id}`;
  const { data, error, setData } = useMine<LeaderGroup>(url);
  const reload = () => void api<LeaderGroup>(url).then(setData, () => undefined);
  if (!allowed) return null;
  return (
    <Shell signedIn>
      <Pending loaded={data !== null} error={error} />
      {data && (
        <>
          <Stack gap={4}>
            <Title order={1} size="h2">
              {data.school}
            </Title>
            <Text size="sm">
              {data.trip.name} · {formatLongDate(data.trip.departure)} to {formatLongDate(data.trip.return)}
            </Text>
          </Stack>
          <SimpleGrid cols={2} spacing="xs" component="section" aria-label="Your group at a glance">
            {[
              ['Pupils', `${data.summary.pupils} of ${data.places}`],
              ['Ready to travel', String(data.summary.ready)],
              ['Without consent', String(data.summary.consent_missing)],
              ['With money overdue', String(data.summary.overdue)],
            ].map(([label, value]) => (
              <Paper key={label} withBorder p="sm">
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  {label}
                </Text>
                <Text fz={22} fw={700}>
                  {value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          {data.invoice && <SchoolInvoice invoice={data.invoice} />}
          {data.pupils.length > 0 && (
            <GroupActions
              groupId={data.id}
              behind={data.pupils.filter((p) => !p.ready || p.overdue > 0).length}
              onSent={reload}
            />
          )}
          <Stack gap="sm" component="section" aria-labelledby="pupils">
            <Title order={2} size="h3" id="pupils">
              Pupils
            </Title>
            {data.pupils.length === 0 && (
              <Text>
                No pupils have joined the group yet.
                {data.adding_open && ' Add them below, one by one or from a list.'}
              </Text>
            )}
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby="pupils">
              {data.pupils.map((p) => (
                <li key={p.booking_id}>
                  <Paper withBorder p="md" component="article" aria-label={p.name}>
                    <Stack gap={6}>
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Text fw={700}>{p.name}</Text>
                        <ToneBadge tone={p.ready ? 'good' : 'warn'}>{p.ready ? 'Ready' : 'Not ready'}</ToneBadge>
                      </Group>
                      <Group gap="xs">
                        <StatusBadge status={p.status} />
                        <Text size="xs" c="dimmed">
                          {p.ref}
                        </Text>
                      </Group>
                      <Text size="sm">
                        {data.payer === 'parents' ? 'Paid' : 'Parents paid'} {formatMoney(p.paid)}
                        {p.overdue > 0 && (
                          <Text span c="red.9" fw={600}>
                            {' '}
                            · {formatMoney(p.overdue)} overdue
                          </Text>
                        )}
                      </Text>
                      <Group gap="md">
                        <ToneBadge tone={CONSENT_WORDS[p.consent].tone}>{CONSENT_WORDS[p.consent].text}</ToneBadge>
                      </Group>
                      <Tick ok={p.form_complete} yes="Form complete" no="Form not complete" />
                      <Tick ok={p.medical_given} yes="Medical information given" no="Medical information missing" />
                      <Tick ok={p.parent_invited} yes="Parent invited" no="Parent not invited yet" />
                    </Stack>
                  </Paper>
                </li>
              ))}
            </Stack>
          </Stack>
          {data.adding_open && (
            <>
              <AddPupil groupId={data.id} onAdded={reload} />
              <ImportPupils groupId={data.id} onAdded={reload} />
            </>
          )}
        </>
      )}
    </Shell>
  );
}
