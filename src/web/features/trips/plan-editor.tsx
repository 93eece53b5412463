import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import {
  AMOUNT_KIND_LABELS,
  AMOUNT_KINDS,
  DUE_KIND_LABELS,
  DUE_KINDS,
  INSTALMENT_LABEL_MAX,
  MAX_INSTALMENTS,
} from '../../../contract/schedule-constants.ts';
import type { PaymentPlan } from '../../../contract/schedules.ts';
import { DateField } from '../../components/date-field.tsx';
import { ServerAlert } from '../../components/form-frame.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { planKey, savePaymentPlan } from './api/payment-plan.ts';
import { tripKeys } from './api/trips.ts';
import { MonthlyHelper } from './monthly-helper.tsx';
import { blankRow, type PlanRow, type PlanValues, toPlanInput, toPlanValues } from './plan-rows.ts';

const amountKinds = AMOUNT_KINDS.map((k) => ({ value: k, label: AMOUNT_KIND_LABELS[k] }));
const dueKinds = DUE_KINDS.map((k) => ({ value: k, label: DUE_KIND_LABELS[k] }));

type Props = {
  tripId: number;
  plan: PaymentPlan;
  editable: boolean;
  onDirty: (dirty: boolean) => void;
  onSaved: () => void;
};

/**
 * The trip's payment plan as a form: 1–24 instalments, each a name (label), an amount (fixed £,
 * a percentage of the cost, the deposit or the rest) and a due rule; add, remove and reorder them,
 * or fill the whole plan with monthly instalments. The server's errors (`instalments.2.percent`)
 * land under the row's field.
 */
export function PlanEditor({ tripId, plan, editable, onDirty, onSaved }: Props) {
  const queryClient = useQueryClient();
  const form = useForm<PlanValues>({ defaultValues: toPlanValues(plan) });
  const rows = useFieldArray({ control: form.control, name: 'instalments' });
  const kinds = useWatch({ control: form.control, name: 'instalments' });
  const [monthly, setMonthly] = useState(false);
  const tableRef = useRef<HTMLTableElement>(null);
  const monthlyButton = useRef<HTMLButtonElement>(null);
  const errors = form.formState.errors;
  const dirty = form.formState.isDirty;

  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const saving = useFormMutation({
    mutationFn: (v: PlanValues) => savePaymentPlan(tripId, toPlanInput(v)),
    // the plan's preview, and the trip's history
    invalidate: [tripKeys.one(tripId)],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the payment plan could not be saved. Please try again.',
    onSuccess: (reply) => {
      queryClient.setQueryData(planKey(tripId), reply);
      form.reset(toPlanValues(reply));
      onSaved();
    },
  });
  const save = form.handleSubmit(async (v) => {
    form.clearErrors();
    await saving.submit(v);
  });

  /** After a row moves or goes, the focus goes to the named control of the row now at `index`. */
  const focusLater = (selector: string) =>
    requestAnimationFrame(() => tableRef.current?.querySelector<HTMLElement>(selector)?.focus());
  const move = (from: number, to: number) => {
    rows.move(from, to);
    const last = rows.fields.length - 1;
    // the button pressed, unless the row has reached the end it was heading for
    const dir = to < from ? (to === 0 ? 'down' : 'up') : to === last ? 'up' : 'down';
    focusLater(`[data-row="${to}"] [data-move="${dir}"]`);
  };
  const remove = (index: number) => {
    rows.remove(index);
    focusLater(`[data-row="${Math.min(index, rows.fields.length - 2)}"] input`);
  };
  const add = () => {
    const at = kinds.at(-1)?.amount_kind === 'rest' ? kinds.length - 1 : kinds.length;
    rows.insert(at, blankRow(at + 1), { shouldFocus: true, focusName: `instalments.${at}.percent` });
  };
  // the focus goes to the plan made, or back to the button that opened the helper
  const fill = (next: PlanRow[]) => {
    rows.replace(next);
    setMonthly(false);
    form.clearErrors();
    requestAnimationFrame(() => form.setFocus('instalments.0.label'));
  };
  const closeMonthly = () => {
    setMonthly(false);
    requestAnimationFrame(() => monthlyButton.current?.focus());
  };

  const rowError = (i: number, field: keyof PlanRow) => errors.instalments?.[i]?.[field]?.message;
  const planError =
    (errors.instalments as { message?: string } | undefined)?.message ?? errors.instalments?.root?.message;

  return (
    <Stack gap="sm">
      {editable && !monthly && (
        <Group>
          <Button variant="default" onClick={() => setMonthly(true)} ref={monthlyButton}>
            Monthly instalments…
          </Button>
          <Text size="sm" c="dimmed">
            Deposit, then a share of the cost each month, and the balance: a school trip's plan in a few clicks.
          </Text>
        </Group>
      )}
      {monthly && <MonthlyHelper cost={plan.cost} deposit={plan.deposit} onFill={fill} onCancel={closeMonthly} />}

      <form onSubmit={save} noValidate aria-label="Payment plan">
        <fieldset disabled={!editable} style={{ border: 0, padding: 0, margin: 0 }}>
          <Table.ScrollContainer minWidth={960}>
            <Table verticalSpacing={6} ref={tableRef}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={32}>#</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Due</Table.Th>
                  {editable && (
                    <Table.Th w={120}>
                      <VisuallyHidden>Order</VisuallyHidden>
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.fields.map((row, i) => {
                  const n = i + 1;
                  const r = kinds[i] ?? row;
                  return (
                    <Table.Tr key={row.id} data-row={i} data-testid={`plan-row-${n}`} style={{ verticalAlign: 'top' }}>
                      <Table.Td pt={12}>
                        <Text size="sm" c="dimmed">
                          {n}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          aria-label={`Instalment ${n} name`}
                          maxLength={INSTALMENT_LABEL_MAX}
                          miw={150}
                          error={rowError(i, 'label')}
                          {...form.register(`instalments.${i}.label`)}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap" align="flex-start">
                          <NativeSelect
                            aria-label={`Instalment ${n} amount`}
                            data={amountKinds}
                            w={260}
                            error={rowError(i, 'amount_kind')}
                            {...form.register(`instalments.${i}.amount_kind`)}
                          />
                          {r.amount_kind === 'fixed' && (
                            <TextInput
                              aria-label={`Instalment ${n} amount in pounds`}
                              leftSection="£"
                              placeholder="0.00"
                              inputMode="decimal"
                              w={120}
                              error={rowError(i, 'amount')}
                              {...form.register(`instalments.${i}.amount`)}
                            />
                          )}
                          {r.amount_kind === 'percent' && (
                            <TextInput
                              aria-label={`Instalment ${n} percentage`}
                              rightSection="%"
                              placeholder="0"
                              inputMode="decimal"
                              w={100}
                              error={rowError(i, 'percent')}
                              {...form.register(`instalments.${i}.percent`)}
                            />
                          )}
                          {r.amount_kind === 'deposit' && (
                            <Text size="sm" c="dimmed" pt={6} w={120}>
                              {formatMoney(plan.deposit)}
                            </Text>
                          )}
                          {r.amount_kind === 'rest' && (
                            <Text size="sm" c="dimmed" pt={6} w={120}>
                              what is left
                            </Text>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap" align="flex-start">
                          {r.due_kind !== 'fixed_date' && (
                            <TextInput
                              aria-label={`Instalment ${n} days`}
                              inputMode="numeric"
                              w={76}
                              error={rowError(i, 'due_days')}
                              {...form.register(`instalments.${i}.due_days`)}
                            />
                          )}
                          <NativeSelect
                            aria-label={`Instalment ${n} due`}
                            data={dueKinds}
                            w={215}
                            error={rowError(i, 'due_kind')}
                            {...form.register(`instalments.${i}.due_kind`)}
                          />
                          {r.due_kind === 'fixed_date' && (
                            <Controller
                              control={form.control}
                              name={`instalments.${i}.due_date`}
                              render={({ field }) => (
                                <DateField
                                  aria-label={`Instalment ${n} due date`}
                                  w={150}
                                  value={field.value}
                                  onChange={field.onChange}
                                  error={rowError(i, 'due_date')}
                                />
                              )}
                            />
                          )}
                        </Group>
                      </Table.Td>
                      {editable && (
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            <ActionIcon
                              variant="default"
                              size="lg"
                              data-move="up"
                              aria-label={`Move instalment ${n} up`}
                              disabled={i === 0}
                              onClick={() => move(i, i - 1)}
                            >
                              ↑
                            </ActionIcon>
                            <ActionIcon
                              variant="default"
                              size="lg"
                              data-move="down"
                              aria-label={`Move instalment ${n} down`}
                              disabled={i === rows.fields.length - 1}
                              onClick={() => move(i, i + 1)}
                            >
                              ↓
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              color="red.9"
                              size="lg"
                              aria-label={`Remove instalment ${n}`}
                              disabled={rows.fields.length === 1}
                              onClick={() => remove(i)}
                            >
                              ×
                            </ActionIcon>
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </fieldset>
        {planError && (
          <Alert color="red" variant="light" role="alert" mt="xs">
            {planError}
          </Alert>
        )}
        <ServerAlert failure={saving.failure} variant="light" />
        {editable && (
          <Group mt="sm">
            <Button type="submit" loading={saving.isPending}>
              Save plan
            </Button>
            <Button variant="default" onClick={add} disabled={rows.fields.length >= MAX_INSTALMENTS}>
              Add Instalment
            </Button>
            {dirty && (
              <Button variant="subtle" onClick={() => form.reset()}>
                Undo changes
              </Button>
            )}
            <Text size="xs" c="dimmed">
              {rows.fields.length} of {MAX_INSTALMENTS} instalments. Bookings already made keep their schedules.
            </Text>
          </Group>
        )}
      </form>
    </Stack>
  );
}
