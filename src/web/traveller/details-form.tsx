import {
  Alert,
  Anchor,
  Badge,
  Button,
  Fieldset,
  FileInput,
  Group,
  List,
  Progress,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import {
  ANSWER_MAX,
  answersSchema,
  type MyBookingDetail,
  myFundraisingTotalSchema,
  PASSPORT_PHOTO_MAX_BYTES,
  travellerFormSchema,
} from '../../contract/my.ts';
import { formatLongDate, formatMoney } from '../lib/format.ts';
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
  save,
  label = 'Your details',
  submitLabel = 'Save my details',
}: {
  booking: Pick<MyBookingDetail, 'id' | 'form' | 'passport_rule' | 'passport_check'>;
  onSaved: (booking: MyBookingDetail) => void;
  /** where the form goes (staff's own route for them); the traveller's own PUT by default */
  save?: (values: Values) => Promise<Pick<MyBookingDetail, 'form'>>;
  label?: string;
  submitLabel?: string;
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
      const saved = save
        ? await save(values)
        : await api<MyBookingDetail>(`/api/my/bookings/${booking.id}/details`, { method: 'PUT', body: values });
      if (!save) onSaved(saved as MyBookingDetail);
      setValues(toValues(saved.form));
      setNotice({ ok: true, text: save ? 'The details are saved.' : 'Your details are saved. Thank you.' });
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
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={label}>
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
            {field('nationality', 'Nationality', { autoComplete: 'off' })}
            {booking.passport_check && (
              <Alert color={booking.passport_check.ok ? 'green' : 'red'} role="note" aria-live="polite">
                {booking.passport_check.message}
              </Alert>
            )}
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
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** The trip's own questions, each a text answer; all are asked of every traveller. */
export function QuestionsForm({
  booking,
  onSaved,
  url = `/api/my/bookings/${booking.id}/answers`,
  submitLabel = 'Save my answers',
}: {
  booking: Pick<MyBookingDetail, 'id' | 'questions'>;
  /** the traveller's page gets their booking back; staff's page reloads its own */
  onSaved: (booking: MyBookingDetail) => void;
  url?: string;
  submitLabel?: string;
}) {
  const [answers, setAnswers] = useState<Record<number, string>>(() =>
    Object.fromEntries(booking.questions.map((q) => [q.id, q.answer])),
  );
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const body = { answers: booking.questions.map((q) => ({ custom_field_id: q.id, value: answers[q.id] ?? '' })) };
    const checked = answersSchema.safeParse(body);
    const fieldErrors = (issues: Record<string, string[] | undefined>) => {
      const found: Record<number, string> = {};
      for (const [path, messages] of Object.entries(issues)) {
        const index = Number(/^answers\.(\d+)\./.exec(path)?.[1]);
        const question = booking.questions[index];
        if (question && messages?.[0]) found[question.id] = messages[0];
      }
      return found;
    };
    if (!checked.success) {
      const issues: Record<string, string[]> = {};
      for (const issue of checked.error.issues) issues[issue.path.join('.')] = [issue.message];
      setErrors(fieldErrors(issues));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = await api<MyBookingDetail>(url, { method: 'PUT', body });
      onSaved(saved);
      if (saved.questions) setAnswers(Object.fromEntries(saved.questions.map((q) => [q.id, q.answer])));
      setNotice({ ok: true, text: 'Your answers are saved. Thank you.' });
    } catch (e) {
      if (e instanceof ApiError && e.errors) setErrors(fieldErrors(e.errors));
      setNotice({
        ok: false,
        text: e instanceof ApiError ? e.message : 'Your answers could not be saved. Please try again.',
      });
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="The trip’s questions">
      <Stack gap="sm">
        {booking.questions.map((q) => (
          <Textarea
            key={q.id}
            label={q.label}
            description={q.note ?? undefined}
            size="md"
            autosize
            minRows={1}
            maxLength={ANSWER_MAX}
            value={answers[q.id] ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setAnswers((a) => ({ ...a, [q.id]: value }));
            }}
            error={errors[q.id]}
            required
          />
        ))}
        {notice && (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'}>
            {notice.text}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={saving}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

const MB = 1024 * 1024;

/** The passport's photo page: the phone offers its camera; checked by the server by what the file is. */
export function PassportPhoto({
  booking,
  onSaved,
  url = `/api/my/bookings/${booking.id}/passport-image`,
}: {
  booking: Pick<MyBookingDetail, 'id' | 'passport_photo'>;
  onSaved: (booking: MyBookingDetail) => void;
  url?: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const photo = booking.passport_photo;
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!file) return setError('Choose a photo of your passport’s photo page.');
    if (file.size > PASSPORT_PHOTO_MAX_BYTES)
      return setError(`The passport photo must not be greater than ${PASSPORT_PHOTO_MAX_BYTES / MB} MB.`);
    setError(null);
    setSending(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const saved = await api<MyBookingDetail>(url, { method: 'POST', body });
      onSaved(saved);
      setFile(null);
      setDone('Thank you: we have your passport photo. We will check it and tell you if anything is wrong.');
    } catch (e) {
      setError(
        e instanceof ApiError
          ? (e.errors?.file?.[0] ?? e.message)
          : 'The photo could not be sent. Please try again on a better connection.',
      );
    } finally {
      setSending(false);
    }
  };
  return (
    <form onSubmit={(e) => void send(e)} noValidate aria-label="Passport photo">
      <Stack gap="sm">
        <Text size="sm">
          {photo.uploaded_at
            ? `We have the photo page you sent on ${formatLongDate(photo.uploaded_at)}${photo.checked ? ', and have checked it.' : '; we will check it soon.'} You can send a new one.`
            : 'Take a photo of your passport’s photo page (the page with your picture), or choose a scan: a JPG, PNG or PDF of up to 10 MB.'}
        </Text>
        <FileInput
          label="Photo page of your passport"
          placeholder="Take a photo or choose a file"
          styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
          accept="image/jpeg,image/png,application/pdf"
          size="md"
          value={file}
          onChange={(f) => {
            setFile(f);
            setError(null);
          }}
          error={error}
          clearable
        />
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={sending} variant={file ? 'filled' : 'light'}>
          Send the photo
        </Button>
      </Stack>
    </form>
  );
}

const STANDING: Record<string, { text: string; color: string }> = {
  on_track: { text: 'On track', color: 'green' },
  behind: { text: 'Behind a milestone', color: 'red' },
  met: { text: 'Target met', color: 'green' },
};

/** A fundraiser's target, milestones and standing, and "Update my total" from their page's figure. */
export function Fundraising({
  booking,
  onSaved,
}: {
  booking: MyBookingDetail;
  onSaved: (booking: MyBookingDetail) => void;
}) {
  const f = booking.fundraising!;
  const [total, setTotal] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const standing = STANDING[f.state];
  const open = !booking.departed && booking.status !== 'cancelled';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const checked = myFundraisingTotalSchema.safeParse({ total });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'Give your page’s total.');
    setError(null);
    setSaving(true);
    try {
      const next = await api<MyBookingDetail>(`/api/my/bookings/${booking.id}/fundraising/total`, {
        method: 'POST',
        body: { total },
      });
      onSaved(next);
      setTotal('');
      setSaved(`Thank you: your total is now ${formatMoney(next.fundraising!.raised)}.`);
    } catch (e) {
      setError(
        e instanceof ApiError
          ? (e.errors?.total?.[0] ?? e.message)
          : 'Your total could not be saved. Please try again.',
      );
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text>
          <Text span fw={700}>
            {formatMoney(f.raised)}
          </Text>{' '}
          raised of your {formatMoney(f.target)} target{f.charity ? ` for ${f.charity}` : ''}
        </Text>
        {standing && (
          <Badge variant="light" color={standing.color} style={{ flexShrink: 0 }}>
            {standing.text}
          </Badge>
        )}
      </Group>
      <Progress
        value={f.target > 0 ? Math.min(100, (f.raised / f.target) * 100) : 0}
        aria-label={`${formatMoney(f.raised)} of ${formatMoney(f.target)} raised`}
        size="lg"
      />
      {f.milestones.length > 0 && (
        <List spacing={4} size="sm" aria-label="Your milestones">
          {f.milestones.map((m) => (
            <List.Item key={m.due}>
              {m.percent}% ({formatMoney(m.amount)}) by {formatLongDate(m.due)}
              {f.raised >= m.amount ? ': reached' : ''}
            </List.Item>
          ))}
        </List>
      )}
      {f.page_url && (
        <Anchor href={f.page_url} target="_blank" rel="noopener noreferrer">
          Your fundraising page
        </Anchor>
      )}
      {open && (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Update my total">
          <Stack gap="xs">
            <TextInput
              label="What does your fundraising page show now?"
              description="In pounds: we add what is new to your total, and your charity sees it."
              leftSection="£"
              inputMode="decimal"
              size="md"
              value={total}
              onChange={(e) => setTotal(e.currentTarget.value)}
              error={error}
            />
            {saved && (
              <Alert color="green" role="status">
                {saved}
              </Alert>
            )}
            <Button type="submit" size="md" fullWidth loading={saving} variant="light">
              Update my total
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
