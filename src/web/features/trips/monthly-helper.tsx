import { Button, Checkbox, Group, Input, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ukToday } from '../../../contract/dates.ts';
import { parsePounds } from '../../../contract/pounds.ts';
import { DEFAULT_DEPOSIT_DUE_DAYS } from '../../../contract/schedule-constants.ts';
import { DateField } from '../../components/date-field.tsx';
import { formatMoney } from '../../lib/format.ts';
import {
  DEFAULT_MONTHLY,
  firstOfNextMonth,
  maxMonthly,
  monthlyRows,
  type PlanRow,
  suggestedPercent,
} from './plan-rows.ts';

const wholeIn = (text: string, min: number, max: number) =>
  /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max ? Number(text) : null;

/**
 * "Monthly instalments": a school trip's whole plan in a few clicks (the deposit, N monthly
 * percentages, the balance for the rest), put in the editor to check and save.
 */
export function MonthlyHelper({
  cost,
  deposit,
  onFill,
  onCancel,
}: {
  cost: number;
  deposit: number;
  onFill: (rows: PlanRow[]) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const dueId = useId();
  const [withDeposit, setWithDeposit] = useState(DEFAULT_MONTHLY.deposit);
  const [count, setCount] = useState(String(DEFAULT_MONTHLY.count));
  // the share follows the count until staff type their own
  const [percent, setPercent] = useState<string | null>(null);
  const [mode, setMode] = useState(DEFAULT_MONTHLY.mode);
  const [firstDays, setFirstDays] = useState(String(DEFAULT_MONTHLY.firstDays));
  const [firstDate, setFirstDate] = useState<string | null>(() => firstOfNextMonth(ukToday()));
  const [balanceDays, setBalanceDays] = useState(String(DEFAULT_MONTHLY.balanceDays));
  const [tried, setTried] = useState(false);

  const most = maxMonthly(withDeposit);
  const n = wholeIn(count, 1, most);
  const share = percent ?? suggestedPercent(n ?? DEFAULT_MONTHLY.count, withDeposit, { cost, deposit });
  const shareNumber =
    /^\d+(\.\d{1,2})?$/.test(share.trim()) && Number(share) > 0 && Number(share) <= 100 ? Number(share) : null;
  const days = wholeIn(firstDays, 0, 3650);
  const balance = wholeIn(balanceDays, 0, 3650);
  const errors = {
    count: n === null ? `Choose from 1 to ${most} monthly instalments.` : undefined,
    percent:
      shareNumber === null ? 'The percentage must be between 0.01 and 100, with at most two decimals.' : undefined,
    firstDays:
      mode === 'days' && days === null ? 'The number of days must be a whole number from 0 to 3650.' : undefined,
    firstDate: mode === 'dates' && !firstDate ? 'The date of the first instalment is required.' : undefined,
    balanceDays: balance === null ? 'The number of days must be a whole number from 0 to 3650.' : undefined,
  };
  const valid = Object.values(errors).every((e) => e === undefined);

  // what a booking would pay, worked out as the server does (each share rounded on the running total)
  const costPence = parsePounds(cost.toFixed(2)) ?? 0;
  const depositPence = withDeposit ? Math.min(costPence, Math.round(deposit * 100)) : 0;
  const monthlyPence = n !== null && shareNumber !== null ? Math.round((costPence * shareNumber * n) / 100) : 0;
  const restPence = costPence - depositPence - monthlyPence;

  const fill = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!valid || n === null || days === null || balance === null) return;
    onFill(
      monthlyRows({
        deposit: withDeposit,
        count: n,
        percent: share.trim(),
        mode,
        firstDays: days,
        firstDate,
        balanceDays: balance,
      }),
    );
  };
  const shown = (error: string | undefined) => (tried ? error : undefined);
  // Escape closes the helper, unless it is closing a calendar that is open
  const escape = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !(e.target as HTMLElement).closest('[data-mantine-stop-propagation]')) onCancel();
  };

  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      bg="gray.0"
      component="form"
      onSubmit={fill}
      onKeyDown={escape}
      noValidate
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          Monthly instalments
        </Title>
        <Checkbox
          label={`Start with the trip's deposit (${formatMoney(deposit)}), due ${DEFAULT_DEPOSIT_DUE_DAYS} days after booking`}
          checked={withDeposit}
          onChange={(e) => setWithDeposit(e.currentTarget.checked)}
        />
        <Group align="flex-start">
          <TextInput
            label="Number of instalments"
            inputMode="numeric"
            w={200}
            value={count}
            onChange={(e) => setCount(e.currentTarget.value)}
            error={shown(errors.count)}
            autoFocus
          />
          <TextInput
            label="Each (% of the trip cost)"
            inputMode="decimal"
            rightSection="%"
            w={200}
            value={share}
            onChange={(e) => setPercent(e.currentTarget.value)}
            error={shown(errors.percent)}
          />
          <TextInput
            label="Balance due (days before departure)"
            inputMode="numeric"
            w={310}
            value={balanceDays}
            onChange={(e) => setBalanceDays(e.currentTarget.value)}
            error={shown(errors.balanceDays)}
          />
        </Group>
        <Group align="flex-start">
          <Input.Wrapper label="Each falls due" labelElement="div" id={dueId}>
            <div>
              <SegmentedControl
                aria-labelledby={`${dueId}-label`}
                value={mode}
                onChange={(v) => setMode(v as typeof mode)}
                data={[
                  { value: 'days', label: 'Every 30 days after booking' },
                  { value: 'dates', label: 'On the same day each month' },
                ]}
              />
            </div>
          </Input.Wrapper>
          {mode === 'days' ? (
            <TextInput
              label="First one (days after booking)"
              inputMode="numeric"
              w={240}
              value={firstDays}
              onChange={(e) => setFirstDays(e.currentTarget.value)}
              error={shown(errors.firstDays)}
            />
          ) : (
            <DateField
              label="First one on"
              w={240}
              value={firstDate}
              onChange={setFirstDate}
              error={shown(errors.firstDate)}
            />
          )}
        </Group>
        {n !== null && shareNumber !== null && costPence > 0 && (
          <Text size="sm" c={restPence < 0 ? 'red.9' : undefined} role={restPence < 0 ? 'alert' : undefined}>
            {withDeposit && `Deposit ${formatMoney(depositPence / 100)}, then `}
            {n} × {shareNumber}% (about {formatMoney(Math.round((costPence * shareNumber) / 100) / 100)} each)
            {restPence >= 0
              ? `, and a balance of ${formatMoney(restPence / 100)}: ${formatMoney(costPence / 100)} in all.`
              : `: ${formatMoney((depositPence + monthlyPence) / 100)}, more than the trip cost of ${formatMoney(costPence / 100)}. Lower the percentage or the number of instalments.`}
          </Text>
        )}
        {costPence === 0 && (
          <Text size="sm" c="dimmed">
            The trip's cost is {formatMoney(0)}: set it in the trip details to see what each instalment comes to.
          </Text>
        )}
        <Group>
          <Button type="submit" disabled={restPence < 0 && costPence > 0}>
            Fill the plan
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Text size="xs" c="dimmed">
            The plan below is replaced; nothing is saved until you press Save plan.
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
