import {
  ActionIcon,
  Alert,
  Badge,
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
import { useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import {
  FUNDRAISING_TYPE_LABELS,
  FUNDRAISING_TYPES,
  MILESTONES_MAX,
  type FundraisingType,
} from '../../../contract/fundraising-constants.ts';
import type { TripFundraising } from '../../../contract/fundraising.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { saveTripFundraising, useTripFundraising } from './api/fundraising.ts';
import { tripKeys } from './api/trips.ts';
import { TripPanel } from './trip-panel.tsx';

type Draft = Record<FundraisingType, { minimum: string; milestones: Array<{ percent: string; weeks_before: string }> }>;

const draftOf = (f: TripFundraising): Draft =>
  Object.fromEntries(
    f.rules.map((r) => [
      r.funding_type,
      {
        minimum: String(r.minimum),
        milestones: r.milestones.map((m) => ({ percent: String(m.percent), weeks_before: String(m.weeks_before) })),
      },
    ]),
  ) as Draft;

/**
 * The trip's fundraising: for Fundraise and Flexi bookings, the minimum sponsorship
 * and the milestones (a percentage of the target raised by some weeks before departure). Until
 * set here, the office's defaults apply. Charities read shows it; charities change edits it.
 */
export function FundraisingPanel({ tripId, editable }: { tripId: number; editable: boolean }) {
  const may = useCan();
  const query = useTripFundraising(tripId);
  // kept here: the editor starts afresh from what was saved
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <TripPanel title="Fundraising" failure={null}>
      {query.isPending ? (
        <Skeleton height={120} />
      ) : query.data ? (
        <Editor
          key={JSON.stringify(query.data)}
          tripId={tripId}
          data={query.data}
          editable={editable && may('charities')}
          notice={notice}
          setNotice={setNotice}
        />
      ) : (
        <Text c="red.9" role="alert">
          The fundraising could not be loaded. Please refresh the page and try again.
        </Text>
      )}
    </TripPanel>
  );
}

function Editor({
  tripId,
  data,
  editable,
  notice,
  setNotice,
}: {
  tripId: number;
  data: TripFundraising;
  editable: boolean;
  notice: string | null;
  setNotice: (n: string | null) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(data));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saving = useFormMutation({
    mutationFn: (body: Parameters<typeof saveTripFundraising>[1]) => saveTripFundraising(tripId, body),
    invalidate: [tripKeys.one(tripId)],
    fallback: 'Sorry, the fundraising could not be saved. Please try again.',
    // the server's field errors ("rules.0.minimum") go under their inputs
    setError: ((name: string, e: { message?: string }) =>
      setErrors((x) => ({ ...x, [name]: e.message ?? '' }))) as UseFormSetError<FieldValues>,
    onSuccess: () => setNotice('The fundraising has been saved.'),
  });
  const set = (type: FundraisingType, next: Draft[FundraisingType]) => {
    setNotice(null);
    setDraft((d) => ({ ...d, [type]: next }));
  };
  const save = () => {
    setErrors({});
    setNotice(null);
    void saving.submit({
      rules: FUNDRAISING_TYPES.map((type) => ({
        funding_type: type,
        minimum: draft[type].minimum,
        milestones: draft[type].milestones.map((m) => ({ percent: m.percent, weeks_before: m.weeks_before })),
      })),
    });
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        What each fundraising traveller must raise for their charity, and by when. Sponsorship is never mixed with the
        trip's invoices or payments.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {FUNDRAISING_TYPES.map((type, i) => {
          const rule = data.rules.find((r) => r.funding_type === type)!;
          const d = draft[type];
          const err = (field: string) => errors[`rules.${i}.${field}`];
          return (
            <Paper
              key={type}
              withBorder
              p="sm"
              radius="md"
              component="fieldset"
              aria-label={`${FUNDRAISING_TYPE_LABELS[type]} bookings`}
              style={{ margin: 0 }}
            >
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h5">
                  {FUNDRAISING_TYPE_LABELS[type]} bookings
                </Title>
                {rule.is_default && (
                  <Badge size="sm" variant="light" color="gray">
                    Office defaults
                  </Badge>
                )}
              </Group>
              <Stack gap="xs">
                <TextInput
                  label="Minimum sponsorship (£)"
                  inputMode="decimal"
                  disabled={!editable}
                  value={d.minimum}
                  onChange={(e) => set(type, { ...d, minimum: e.currentTarget.value })}
                  error={err('minimum')}
                  w={220}
                />
                <Text size="sm" fw={500}>
                  Milestones
                </Text>
                {d.milestones.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No milestones: only the target counts.
                  </Text>
                )}
                {d.milestones.map((m, j) => (
                  <Group key={j} gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      label={j === 0 ? 'Percent' : undefined}
                      aria-label={`${FUNDRAISING_TYPE_LABELS[type]} milestone ${j + 1}: percent of the target`}
                      inputMode="numeric"
                      w={90}
                      disabled={!editable}
                      value={m.percent}
                      error={err(`milestones.${j}.percent`)}
                      onChange={(e) =>
                        set(type, {
                          ...d,
                          milestones: d.milestones.map((x, k) =>
                            k === j ? { ...x, percent: e.currentTarget.value } : x,
                          ),
                        })
                      }
                    />
                    <TextInput
                      label={j === 0 ? 'Weeks before departure' : undefined}
                      aria-label={`${FUNDRAISING_TYPE_LABELS[type]} milestone ${j + 1}: weeks before departure`}
                      inputMode="numeric"
                      w={190}
                      disabled={!editable}
                      value={m.weeks_before}
                      error={err(`milestones.${j}.weeks_before`)}
                      onChange={(e) =>
                        set(type, {
                          ...d,
                          milestones: d.milestones.map((x, k) =>
                            k === j ? { ...x, weeks_before: e.currentTarget.value } : x,
                          ),
                        })
                      }
                    />
                    {editable && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        mb={2}
                        aria-label={`Remove ${FUNDRAISING_TYPE_LABELS[type]} milestone ${j + 1}`}
                        onClick={() => set(type, { ...d, milestones: d.milestones.filter((_, k) => k !== j) })}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                ))}
                {err('milestones') && (
                  <Text size="sm" c="red.9" role="alert">
                    {err('milestones')}
                  </Text>
                )}
                {editable && d.milestones.length < MILESTONES_MAX && (
                  <Button
                    variant="subtle"
                    size="xs"
                    w="fit-content"
                    onClick={() =>
                      set(type, { ...d, milestones: [...d.milestones, { percent: '', weeks_before: '' }] })
                    }
                  >
                    Add a milestone
                  </Button>
                )}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      {errors.rules && (
        <Text size="sm" c="red.9" role="alert">
          {errors.rules}
        </Text>
      )}
      {saving.failure && (
        <Text size="sm" c="red.9" role="alert">
          {saving.failure}
        </Text>
      )}
      {notice && (
        <Alert
          color="blue"
          role="status"
          py={6}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      )}
      {editable && (
        <Group>
          <Button onClick={save} loading={saving.isPending}>
            Save Fundraising
          </Button>
        </Group>
      )}
    </Stack>
  );
}
