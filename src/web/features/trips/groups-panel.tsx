import { Button, Grid, Group as Row, NativeSelect, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { GROUP_PAYER_LABELS, GROUP_PAYERS, type Group, type GroupPayer } from '../../../contract/groups.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { TONES } from '../../components/status-badge.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { addGroup, groupKeys, updateGroup, useGroups } from './api/groups.ts';
import { tripKeys } from './api/trips.ts';
import { editingRow, TripPanel } from './trip-panel.tsx';
import { useRowEditor } from './use-row-editor.ts';

const GroupInvoiceDialog = lazyComponent(() => import('./group-invoice-dialog.tsx').then((m) => m.GroupInvoiceDialog));

type Values = {
  school: string;
  leader_name: string;
  leader_email: string;
  leader_phone: string;
  places: string;
  payer: GroupPayer;
  school_share: string;
};
const EMPTY: Values = {
  school: '',
  leader_name: '',
  leader_email: '',
  leader_phone: '',
  places: '',
  payer: 'parents',
  school_share: '',
};
const toBody = (v: Values) => ({ ...v, school_share: v.payer === 'split' ? v.school_share : undefined });

/**
 * A school trip's groups (issue 37): each school with its group leader, places, pupils and who
 * pays; added and changed here by a member who may change bookings. A group's pupils are its
 * bookings. When the school pays, its group invoice opens from here, and the school's payments
 * are recorded on it by a member who may record money.
 */
export function GroupsPanel({ tripId, editable: tripEditable }: { tripId: number; editable: boolean }) {
  const may = useCan();
  const editable = tripEditable && may('bookings');
  const groups = useGroups(tripId);
  const ed = useRowEditor<Group, Values>({
    empty: EMPTY,
    toValues: (g) => ({
      school: g.school,
      leader_name: g.leader.name,
      leader_email: g.leader.email,
      leader_phone: g.leader.phone ?? '',
      places: String(g.places),
      payer: g.payer,
      school_share: g.school_share === null ? '' : g.school_share.toFixed(2),
    }),
    create: (v) => addGroup(tripId, toBody(v)),
    update: (id, v) => updateGroup(id, toBody(v)),
    remove: () => Promise.reject(new Error('A group is not removed here.')),
    invalidate: [groupKeys.ofTrip(tripId), tripKeys.one(tripId)],
    saveFallback: 'Sorry, the group could not be saved. Please try again.',
  });
  const split = useWatch({ control: ed.form.control, name: 'payer' }) === 'split';
  const [invoiceOf, setInvoiceOf] = useState<Group | null>(null);

  const columns: Array<Column<Group>> = [
    {
      key: 'school',
      label: 'School',
      cell: (g) => (
        <>
          <Text size="sm" fw={500}>
            {g.school}
          </Text>
          <Text size="xs" c="dimmed">
            {g.leader.name} · {g.leader.email}
            {g.leader.phone ? ` · ${g.leader.phone}` : ''}
          </Text>
        </>
      ),
    },
    { key: 'pupils', label: 'Pupils', align: 'right', cell: (g) => `${g.pupils} of ${g.places}` },
    {
      key: 'money',
      label: 'Parents paid',
      align: 'right',
      cell: (g) => (
        <>
          <Text size="sm">{formatMoney(g.paid)}</Text>
          {g.overdue > 0 && (
            <Text size="xs" c={TONES.bad.color} fw={600}>
              {formatMoney(g.overdue)} overdue
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'ready',
      label: 'Ready',
      align: 'right',
      cell: (g) => (
        <>
          <Text size="sm">
            {g.ready} of {g.pupils}
          </Text>
          {g.consent_missing > 0 && (
            <Text size="xs" c={TONES.warn.color}>
              {g.consent_missing} without consent
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'payer',
      label: 'Who pays',
      cell: (g) =>
        g.payer === 'split' && g.school_share !== null
          ? `Split: the school ${formatMoney(g.school_share)} per pupil`
          : GROUP_PAYER_LABELS[g.payer],
    },
    {
      key: 'actions',
      label: 'Actions',
      cell: (g) => (
        <Row gap={6} wrap="nowrap">
          {g.payer !== 'parents' && may('finance', 'read') && (
            <Button
              size="xs"
              variant="default"
              onClick={() => setInvoiceOf(g)}
              aria-label={`The group invoice of ${g.school}`}
            >
              Invoice
            </Button>
          )}
          {editable && (
            <Button
              size="xs"
              variant="default"
              onClick={() => ed.startEdit(g)}
              aria-label={`Edit the group of ${g.school}`}
            >
              Edit
            </Button>
          )}
        </Row>
      ),
    },
  ];

  return (
    <TripPanel title="School groups" failure={ed.failure}>
      <DataTable
        columns={columns}
        query={groups}
        failed="The groups could not be loaded. Please refresh the page and try again."
        rowKey={(g) => g.id}
        empty="This trip has no groups yet: add each school that brings pupils."
        rowProps={(g) => editingRow(ed.editing?.id === g.id)}
      />
      {invoiceOf && (
        <GroupInvoiceDialog
          groupId={invoiceOf.id}
          tripId={tripId}
          school={invoiceOf.school}
          mayRecord={may('finance')}
          onClose={() => setInvoiceOf(null)}
        />
      )}
      {editable && (
        <form onSubmit={ed.save} noValidate aria-label={ed.editing ? 'Change the group' : 'Add a group'}>
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
              <TextInput label="School" required error={ed.errors.school?.message} {...ed.form.register('school')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
              <TextInput
                label="Group leader"
                description="The teacher who leads the group"
                required
                error={ed.errors.leader_name?.message}
                {...ed.form.register('leader_name')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
              <TextInput
                label="Leader’s email"
                type="email"
                required
                error={ed.errors.leader_email?.message}
                {...ed.form.register('leader_email')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput
                label="Leader’s telephone"
                type="tel"
                error={ed.errors.leader_phone?.message}
                {...ed.form.register('leader_phone')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, md: 2 }}>
              <TextInput
                label="Places"
                inputMode="numeric"
                required
                error={ed.errors.places?.message}
                {...ed.form.register('places')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
              <NativeSelect
                label="Who pays"
                data={GROUP_PAYERS.map((p) => ({ value: p, label: GROUP_PAYER_LABELS[p] }))}
                error={ed.errors.payer?.message}
                {...ed.form.register('payer')}
              />
            </Grid.Col>
            {split && (
              <Grid.Col span={{ base: 6, md: 3 }}>
                <TextInput
                  label="School pays per pupil"
                  leftSection="£"
                  inputMode="decimal"
                  placeholder="0.00"
                  required
                  error={ed.errors.school_share?.message}
                  {...ed.form.register('school_share')}
                />
              </Grid.Col>
            )}
          </Grid>
          <Row mt="sm" gap="xs">
            <Button type="submit" loading={ed.saving}>
              {ed.editing ? 'Save Group' : 'Add Group'}
            </Button>
            {ed.editing && (
              <Button variant="default" onClick={ed.reset}>
                Cancel
              </Button>
            )}
          </Row>
        </form>
      )}
    </TripPanel>
  );
}
