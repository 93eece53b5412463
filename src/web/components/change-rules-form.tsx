import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { FUNDING_TYPE_LABELS } from '../../contract/booking-constants.ts';
import { CHANGE_FUNDING_TYPES, KEEP_KINDS, KEEP_LABELS } from '../../contract/change-constants.ts';
import type { ChangeRules } from '../../contract/changes.ts';
import { ServerAlert } from './form-frame.tsx';
import { api } from '../lib/api.ts';
import { useFormMutation } from '../lib/mutation.ts';

type BandRow = { from_days: string; keep: string; percent: string; funding_type: string };
type Values = { bands: BandRow[]; transfer_fee: string; move_fee: string };

const keeps = KEEP_KINDS.map((k) => ({ value: k, label: KEEP_LABELS[k] }));
const fundings = [
  { value: '', label: 'Every booking' },
  ...CHANGE_FUNDING_TYPES.map((f) => ({ value: f, label: `${FUNDING_TYPE_LABELS[f]} only` })),
];

const toValues = (r: ChangeRules): Values => ({
  bands: r.bands.map((b) => ({
    from_days: String(b.from_days),
    keep: b.keep,
    percent: b.percent === null ? '' : String(b.percent),
    funding_type: b.funding_type ?? '',
  })),
  transfer_fee: r.transfer_fee.toFixed(2),
  move_fee: r.move_fee.toFixed(2),
});

/**
 * The cancellation scale's bands, the transfer fee and the move fee, as a form: the office's on
 * /settings/changes and a trip's own on its page. PUT to `url`; `onSaved` gets the reply.
 */
export function ChangeRulesForm<R extends ChangeRules>({
  rules,
  url,
  label,
  note,
  onSaved,
  actions,
  bare = false,
  readOnly = false,
}: {
  rules: R;
  url: string;
  label: string;
  /** said above the scale (e.g. whose rules are in use) */
  note?: ReactNode;
  onSaved: (reply: R) => void;
  /** more buttons beside Save Fees */
  actions?: ReactNode;
  /** inside a panel of its own: no border of its own */
  bare?: boolean;
  /** the member may only read the fees: the fields disabled, no save, add or remove buttons (`actions` still show) */
  readOnly?: boolean;
}) {
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: toValues(rules) });
  const bands = useFieldArray({ control: form.control, name: 'bands' });
  const rows = useWatch({ control: form.control, name: 'bands' });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (v: Values) =>
      api<R>(url, {
        method: 'PUT',
        body: {
          bands: v.bands.map((b) => ({
            from_days: b.from_days,
            keep: b.keep,
            percent: b.keep === 'percent' ? b.percent : null,
            funding_type: b.funding_type || null,
          })),
          transfer_fee: v.transfer_fee,
          move_fee: v.move_fee,
        },
      }),
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the fees could not be saved. Please try again.',
    onSuccess: (reply) => {
      onSaved(reply);
      form.reset(toValues(reply));
      setSaved('The fees for changes have been saved.');
    },
  });
  const rowError = (i: number, f: keyof BandRow) => errors.bands?.[i]?.[f]?.message;
  const bandsError = (errors.bands as { message?: string } | undefined)?.message ?? errors.bands?.root?.message;
  return (
    <Paper
      withBorder={!bare}
      p={bare ? 0 : 'lg'}
      radius="md"
      component="form"
      aria-label={label}
      noValidate
      onSubmit={form.handleSubmit(async (v) => {
        if (readOnly) return;
        setSaved(null);
        form.clearErrors();
        await saving.submit(v);
      })}
    >
      <Stack>
        <ServerAlert failure={saving.failure} />
        {saved && (
          <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setSaved(null)}>
            {saved}
          </Alert>
        )}
        {note && <Text size="sm">{note}</Text>}
        <Title order={2} size="h4">
          Cancellation scale
        </Title>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From days before departure</Table.Th>
                <Table.Th>Kept</Table.Th>
                <Table.Th>For</Table.Th>
                {!readOnly && <Table.Th w={40} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bands.fields.map((field, i) => {
                const n = i + 1;
                return (
                  <Table.Tr key={field.id} style={{ verticalAlign: 'top' }}>
                    <Table.Td>
                      <TextInput
                        aria-label={`Band ${n}: from days before departure`}
                        inputMode="numeric"
                        w={120}
                        error={rowError(i, 'from_days')}
                        disabled={readOnly}
                        {...form.register(`bands.${i}.from_days`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap" align="flex-start">
                        <NativeSelect
                          aria-label={`Band ${n}: kept`}
                          data={keeps}
                          w={250}
                          error={rowError(i, 'keep')}
                          disabled={readOnly}
                          {...form.register(`bands.${i}.keep`)}
                        />
                        {rows[i]?.keep === 'percent' && (
                          <TextInput
                            aria-label={`Band ${n}: percentage of the trip cost`}
                            rightSection="%"
                            inputMode="numeric"
                            w={90}
                            error={rowError(i, 'percent')}
                            disabled={readOnly}
                            {...form.register(`bands.${i}.percent`)}
                          />
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <NativeSelect
                        aria-label={`Band ${n}: for`}
                        data={fundings}
                        w={200}
                        error={rowError(i, 'funding_type')}
                        disabled={readOnly}
                        {...form.register(`bands.${i}.funding_type`)}
                      />
                    </Table.Td>
                    {!readOnly && (
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove band ${n}`}
                          onClick={() => bands.remove(i)}
                          disabled={bands.fields.length === 1}
                        >
                          ×
                        </ActionIcon>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {bandsError && (
          <Text c="red" size="sm" role="alert">
            {bandsError}
          </Text>
        )}
        {!readOnly && (
          <Group>
            <Button
              variant="default"
              onClick={() =>
                bands.append(
                  { from_days: '', keep: 'percent', percent: '', funding_type: '' },
                  { focusName: `bands.${bands.fields.length}.from_days` },
                )
              }
              disabled={bands.fields.length >= 30}
            >
              Add a band
            </Button>
          </Group>
        )}
        <Title order={2} size="h4">
          Other changes
        </Title>
        <Group align="flex-start">
          <TextInput
            label="Transfer to another traveller"
            leftSection="£"
            inputMode="decimal"
            w={240}
            error={errors.transfer_fee?.message}
            disabled={readOnly}
            {...form.register('transfer_fee')}
          />
          <TextInput
            label="Move to another departure"
            leftSection="£"
            inputMode="decimal"
            w={240}
            error={errors.move_fee?.message}
            disabled={readOnly}
            {...form.register('move_fee')}
          />
        </Group>
        {(!readOnly || actions) && (
          <Group>
            {!readOnly && (
              <Button type="submit" loading={saving.isPending}>
                Save Fees
              </Button>
            )}
            {actions}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
