import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDeferredValue, useState } from 'react';
import type { PassportRule } from '../../../contract/countries.ts';
import { PASSPORT_MONTHS_DEFAULT } from '../../../contract/country-constants.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { useCan } from '../../lib/session.tsx';
import { usePassportRules } from './api/countries.ts';
import { SettingsNav } from './settings-nav.tsx';

// the dialog (its form, and zod on the first save) loads when a rule is first edited
const PassportRuleDialog = lazyComponent(() => import('./passport-rule-dialog.tsx').then((m) => m.PassportRuleDialog));

/**
 * /settings/countries: each destination's passport rule, the months a passport must
 * still be valid after the trip's return and a note; an Administrator changes one in a dialog.
 */
export default function CountriesPage() {
  const may = useCan();
  // passport rules are trip set-up: change to edit one
  const rules = usePassportRules();
  const [search, setSearch] = useState('');
  const term = useDeferredValue(search.trim().toLowerCase());
  const [editing, setEditing] = useState<PassportRule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const shown = (rules.data ?? []).filter(
    (r) => !term || r.name.toLowerCase().includes(term) || r.code.toLowerCase() === term,
  );
  const columns: Array<Column<PassportRule>> = [
    { key: 'name', label: 'Country', cell: (r) => r.name },
    {
      key: 'code',
      label: 'Code',
      cell: (r) => (
        <Text ff="monospace" size="sm">
          {r.code}
        </Text>
      ),
    },
    {
      key: 'months',
      label: 'Months valid after return',
      align: 'right',
      cell: (r) => (
        <Text size="sm" fw={r.months === PASSPORT_MONTHS_DEFAULT ? undefined : 700}>
          {r.months}
        </Text>
      ),
    },
    {
      key: 'note',
      label: 'Note',
      cell: (r) =>
        r.note ?? (
          <Text span c="dimmed" size="sm">
            —
          </Text>
        ),
    },
    {
      key: 'action',
      label: 'Action',
      hidden: !may('trips'),
      cell: (r) => (
        <Button
          size="xs"
          variant="default"
          onClick={() => setEditing(r)}
          aria-label={`Edit the passport rule for ${r.name}`}
        >
          Edit
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <SettingsNav />
      <div>
        <Title order={1}>Passport rules</Title>
        <Text c="dimmed" size="sm" maw={760}>
          How long a traveller's passport must still be valid after the trip comes back, for each destination. Tripdesk
          starts from {PASSPORT_MONTHS_DEFAULT} months, and 3 for the Schengen area: confirm each with official travel
          advice before you rely on it.
        </Text>
      </div>
      {notice && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <TextInput
        label="Find a country"
        placeholder="Name or code"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={320}
        type="search"
      />
      <DataTable
        columns={columns}
        query={{ ...rules, data: shown }}
        failed="The passport rules could not be loaded. Please refresh the page and try again."
        rowKey={(r) => r.country_id}
        empty={term ? `No country matches "${search.trim()}".` : 'There are no countries.'}
        caption="Passport rules by destination"
      />
      {editing && (
        <PassportRuleDialog
          rule={editing}
          onClose={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            setNotice(message);
          }}
        />
      )}
    </Stack>
  );
}
