import { Alert, Button, NativeSelect, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { joinWaitingListSchema } from '../../contract/online-booking.ts';
import { api, ApiError } from '../lib/api.ts';
import { Heading } from './heading.tsx';

/** A full trip's waiting list: name, email, how many places and a note; the server's answer is what counts. */
export function WaitingListForm({ slug }: { slug: string }) {
  const [values, setValues] = useState({
    first_name: '',
    last_name: '',
    email: '',
    places: 1,
    note: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const set = (key: keyof typeof values, value: string | number) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: '' } : e));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const checked = joinWaitingListSchema.safeParse(values);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      setNotice({ ok: false, text: 'Please check the fields marked in red.' });
      return;
    }
    setSending(true);
    try {
      const { message } = await api<{ message: string }>(`/api/public/trips/${encodeURIComponent(slug)}/waiting-list`, {
        method: 'POST',
        body: values,
      });
      setNotice({ ok: true, text: message });
    } catch (e) {
      if (e instanceof ApiError && e.errors) {
        setErrors(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, v[0] ?? ''])));
        setNotice({ ok: false, text: 'Please check the fields marked in red.' });
      } else
        setNotice({
          ok: false,
          text:
            e instanceof ApiError && e.status < 500 ? e.message : 'You could not be added just now. Please try again.',
        });
    } finally {
      setSending(false);
    }
  };
  if (notice?.ok)
    return (
      <Alert color="green" role="status" title={<Heading>You are on the waiting list</Heading>}>
        {notice.text}
      </Alert>
    );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Join the waiting list">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Join the waiting list
        </Title>
        <TextInput
          label="First name"
          size="md"
          required
          autoComplete="given-name"
          value={values.first_name}
          onChange={(e) => set('first_name', e.currentTarget.value)}
          error={errors.first_name}
        />
        <TextInput
          label="Last name"
          size="md"
          required
          autoComplete="family-name"
          value={values.last_name}
          onChange={(e) => set('last_name', e.currentTarget.value)}
          error={errors.last_name}
        />
        <TextInput
          label="Email"
          size="md"
          required
          type="email"
          inputMode="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.currentTarget.value)}
          error={errors.email}
        />
        <NativeSelect
          label="How many places"
          size="md"
          value={String(values.places)}
          onChange={(e) => set('places', Number(e.currentTarget.value))}
          error={errors.places}
          data={Array.from({ length: 10 }, (_, i) => String(i + 1))}
        />
        <Textarea
          label="Anything we should know"
          size="md"
          autosize
          minRows={2}
          value={values.note}
          onChange={(e) => set('note', e.currentTarget.value)}
          error={errors.note}
        />
        {notice && (
          <Alert color="red" role="alert">
            {notice.text}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={sending}>
          Join the waiting list
        </Button>
      </Stack>
    </form>
  );
}
