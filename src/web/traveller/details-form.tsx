import { Alert, Button, Fieldset, Radio, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { type MyBookingDetail, travellerFormSchema } from '../../contract/my.ts';
import { api, ApiError } from '../lib/api.ts';

type Form = MyBookingDetail['form'];
type Values = { [K in keyof Form]: Form[K] extends boolean ? boolean : string };

const toValues = (form: Form): Values =>
  Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === 'boolean' ? v : (v ?? '')])) as Values;

/**
 * The traveller's own form, checked by the same contract as the server before it is sent; the
 * server's answer (its own field errors, or the booking as it now stands) is what counts.
 */
export function DetailsForm({
  booking,
  onSaved,
}: {
  booking: MyBookingDetail;
  onSaved: (booking: MyBookingDetail) => void;
}) {
  const [values, setValues] = useState<Values>(() => toValues(booking.form));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const set = (key: keyof Values) => (value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));
  const field = (key: keyof Values, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      size="md"
      value={values[key] as string}
      onChange={(e) => set(key)(e.currentTarget.value)}
      error={errors[key]}
      {...extra}
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const checked = travellerFormSchema.safeParse(values);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      setNotice({ ok: false, text: 'Please check the fields marked in red.' });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = await api<MyBookingDetail>(`/api/my/bookings/${booking.id}/details`, {
        method: 'PUT',
        body: values,
      });
      onSaved(saved);
      setValues(toValues(saved.form));
      setNotice({ ok: true, text: 'Your details are saved. Thank you.' });
    } catch (e) {
      if (e instanceof ApiError && e.errors) {
        setErrors(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, v[0] ?? ''])));
        setNotice({ ok: false, text: 'Please check the fields marked in red.' });
      } else
        setNotice({
          ok: false,
          text: e instanceof ApiError ? e.message : 'Your details could not be saved. Please try again.',
        });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Your details">
      <Stack gap="md">
        <Fieldset legend="About you">
          <Stack gap="sm">
            {field('title', 'Title', { autoComplete: 'honorific-prefix' })}
            {field('first_name', 'First name, as on your passport', { required: true, autoComplete: 'given-name' })}
            {field('last_name', 'Last name, as on your passport', { required: true, autoComplete: 'family-name' })}
            {field('date_of_birth', 'Date of birth', { required: true, type: 'date', autoComplete: 'bday' })}
            {field('mobile', 'Mobile', { required: true, type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Your address">
          <Stack gap="sm">
            {field('address_1', 'Address line 1', { required: true, autoComplete: 'address-line1' })}
            {field('address_2', 'Address line 2', { autoComplete: 'address-line2' })}
            {field('address_3', 'Town', { autoComplete: 'address-level2' })}
            {field('address_4', 'County')}
            {field('post_code', 'Post code', { required: true, autoComplete: 'postal-code' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Passport">
          <Stack gap="sm">
            {booking.passport_rule && <Text size="sm">{booking.passport_rule}</Text>}
            {field('passport_number', 'Passport number', { autoComplete: 'off' })}
            {field('passport_issue', 'Date of issue', { type: 'date' })}
            {field('passport_expiry', 'Date of expiry', { type: 'date' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Next of kin (whom we call in an emergency)">
          <Stack gap="sm">
            {field('nok_name', 'Name', { required: true })}
            {field('nok_relationship', 'Relationship to you')}
            {field('nok_telephone', 'Telephone', { required: true, type: 'tel', inputMode: 'tel' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Health and diet">
          <Stack gap="sm">
            <Radio.Group
              label="Do you have any medical conditions we should know about?"
              value={values.medical_conditions ? 'yes' : 'no'}
              onChange={(v) => set('medical_conditions')(v === 'yes')}
              error={errors.medical_conditions}
            >
              <Group mt="xs">
                <Radio value="no" label="No" size="md" />
                <Radio value="yes" label="Yes" size="md" />
              </Group>
            </Radio.Group>
            {values.medical_conditions && (
              <Textarea
                label="Tell us about them"
                size="md"
                autosize
                minRows={2}
                value={values.medical_detail}
                onChange={(e) => set('medical_detail')(e.currentTarget.value)}
                error={errors.medical_detail}
                required
              />
            )}
            {field('medication', 'Medication you will bring')}
            {field('dietary', 'Dietary needs')}
          </Stack>
        </Fieldset>
        <Fieldset legend="Travel insurance">
          <Stack gap="sm">
            {field('insurance_company', 'Insurance company')}
            {field('insurance_policy_number', 'Policy number')}
            {field('insurance_telephone', 'Emergency telephone', { type: 'tel', inputMode: 'tel' })}
          </Stack>
        </Fieldset>
        <Fieldset legend="Your room">
          <Stack gap="sm">
            {field('room_type', 'Room type (twin, double, single…)')}
            {field('share_with', 'Who you would like to share with')}
          </Stack>
        </Fieldset>
        {notice && (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'}>
            {notice.text}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={saving}>
          Save my details
        </Button>
      </Stack>
    </form>
  );
}
