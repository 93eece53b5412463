import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeRules } from '../../../contract/changes.ts';
import { api } from '../../lib/api.ts';
import { useCan } from '../../lib/session.tsx';
import { ChangeRulesForm } from '../../components/change-rules-form.tsx';
import { SettingsNav } from './settings-nav.tsx';

const RULES_KEY = ['settings', 'changes'] as const;

/**
 * /settings/changes: the office's fees for changes after booking. The cancellation scale's bands
 * (from how many days before departure, what is kept, for which bookings), the transfer fee and
 * the move fee. Every cancellation's preview is worked out from what is saved here.
 */
export default function ChangesPage() {
  const may = useCan();
  // the office's fees are settings: change to save them
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: RULES_KEY, queryFn: () => api<ChangeRules>('/api/settings/changes') });
  return (
    <Stack maw={900}>
      <SettingsNav />
      <Title order={1}>Fees for changes</Title>
      <Text size="sm" c="dimmed">
        What a cancellation keeps, by how many days before departure it is made (the UK day), never less than the
        deposit; and the fees for passing a place to another traveller or moving it to another departure.
      </Text>
      {rules.isError && (
        <Alert color="red" role="alert">
          The fees could not be loaded. Please refresh the page and try again.
        </Alert>
      )}
      {rules.data && (
        <ChangeRulesForm
          rules={rules.data}
          url="/api/settings/changes"
          label="Fees for changes"
          note={rules.data.saved ? undefined : 'Tripdesk’s defaults are in use until you save the office’s own.'}
          onSaved={(reply) => queryClient.setQueryData(RULES_KEY, reply)}
          readOnly={!may('settings')}
        />
      )}
    </Stack>
  );
}
