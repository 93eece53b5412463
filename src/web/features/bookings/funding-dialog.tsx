import { NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { FUNDING_TYPE_LABELS, FUNDING_TYPES } from '../../../contract/booking-constants.ts';
import type { FundingPreview, FundingSet } from '../../../contract/changes.ts';
import { formatPounds } from '../../../contract/pounds.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { api, ApiError } from '../../lib/api.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { bookingKeys } from './api/bookings.ts';
import { Figure, PreviewFrame, useChangePreview } from './change-preview.tsx';

type Values = { funding_type: string; charity_id: string; reason: string };

/** Changes how a booking is paid for and the charity it raises for, showing first what follows. */
export function FundingDialog({
  bookingId,
  fundingType,
  charityId,
  onClose,
  onDone,
}: {
  bookingId: number;
  fundingType: string;
  charityId: number | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const form = useForm<Values>({
    resolver: lazyZodResolver(() => import('../../../contract/changes.ts').then((m) => m.setFundingSchema)) as never,
    defaultValues: { funding_type: fundingType, charity_id: charityId === null ? '' : String(charityId), reason: '' },
  });
  const [funding, charity] = useWatch({ control: form.control, name: ['funding_type', 'charity_id'] });
  // the charities' names are the charities area's: without it, the funding changes and the charity stays
  const seesCharities = useCan()('charities', 'read');
  const charities = useQuery({
    queryKey: ['charities', 'names'],
    queryFn: () => api<Array<{ id: number; name: string }>>('/api/charities'),
    staleTime: 60_000,
    enabled: seesCharities,
  });
  const preview = useChangePreview<FundingPreview>(bookingId, 'funding', {
    funding_type: funding,
    charity_id: charity,
  });
  const errors = form.formState.errors;
  const saving = useFormMutation({
    mutationFn: (body: Values) => api<FundingSet>(`/api/bookings/${bookingId}/funding`, { method: 'PUT', body }),
    invalidate: [bookingKeys.one(bookingId), bookingKeys.lists],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the funding could not be changed. Please try again.',
    onSuccess: (res) => onDone(res.message),
  });
  // a choice the server refuses (a fundraiser with no charity) shows as the preview's own error
  const refusal = preview.error instanceof ApiError ? preview.error.errors : undefined;
  return (
    <FormDialog
      title="Change funding"
      size="lg"
      onClose={onClose}
      onSubmit={form.handleSubmit((v) => saving.submit(v))}
      failure={saving.failure}
      submitLabel="Change Funding"
      cancelLabel="Keep As It Is"
      submitting={saving.isPending}
      above={
        refusal ? (
          <Text size="sm" c="red.8" role="alert">
            {Object.values(refusal).flat().join(' ')}
          </Text>
        ) : (
          <PreviewFrame preview={preview} what="the change">
            {(p) => (
              <Stack gap="xs" role="group" aria-label="What the change does">
                <Text size="sm">{p.summary}</Text>
                <SimpleGrid cols={3} spacing="xs">
                  <Figure
                    label="Target"
                    value={p.to.target === null ? 'Not fundraising' : formatPounds(p.to.target)}
                    strong
                  />
                  <Figure label="Raised so far" value={formatPounds(p.raised)} />
                  <Figure label="Entries kept" value={String(p.entries_kept)} />
                </SimpleGrid>
              </Stack>
            )}
          </PreviewFrame>
        )
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NativeSelect
          label="Funding"
          data={FUNDING_TYPES.map((f) => ({ value: f, label: FUNDING_TYPE_LABELS[f] }))}
          error={errors.funding_type?.message}
          {...form.register('funding_type')}
        />
        {seesCharities && (
          <NativeSelect
            label="Charity"
            data={[
              { value: '', label: charities.isPending ? 'Loading…' : 'The trip’s own, or none' },
              ...(charities.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
            ]}
            error={errors.charity_id?.message}
            {...form.register('charity_id')}
          />
        )}
      </SimpleGrid>
      <Textarea
        label="Reason"
        required
        autosize
        minRows={2}
        maxLength={500}
        error={errors.reason?.message}
        {...form.register('reason')}
      />
    </FormDialog>
  );
}
