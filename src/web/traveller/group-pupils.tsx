import { Alert, Anchor, Button, FileInput, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import {
  type GroupReminders,
  PUPIL_COLUMNS,
  PUPIL_IMPORT_MAX_MB,
  pupilInputSchema,
  type PupilInput,
  type PupilsAdded,
} from '../../contract/groups.ts';
import { api, ApiError } from '../lib/api.ts';

const EMPTY: PupilInput = { first_name: '', last_name: '', date_of_birth: '', parent_name: '', parent_email: '' };
const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  date_of_birth: 'Date of birth',
  parent_name: 'Parent’s name',
  parent_email: 'Parent’s email',
};

/** A section's heading and its frame, as the rest of the leader's page. */
function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** "Add a pupil": one pupil and their parent, checked here with the server's own schema first. */
export function AddPupil({ groupId, onAdded }: { groupId: number; onAdded: () => void }) {
  const [values, setValues] = useState<PupilInput>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setFailure(null);
    const checked = pupilInputSchema.safeParse(values);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const added = await api<PupilsAdded>(`/api/my/groups/${groupId}/pupils`, { method: 'POST', body: values });
      setDone(added.message);
      setValues(EMPTY);
      onAdded();
    } catch (e) {
      if (e instanceof ApiError && e.errors)
        setErrors(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, v[0] ?? ''])));
      setFailure(e instanceof ApiError ? e.message : 'The pupil could not be added. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const field = (name: keyof PupilInput, props: Record<string, unknown> = {}) => (
    <TextInput
      label={FIELD_LABELS[name]}
      value={values[name]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [name]: value }));
      }}
      error={errors[name]}
      required
      {...props}
    />
  );
  return (
    <Section id="add-pupil" title="Add a pupil">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          {field('first_name', { autoComplete: 'off' })}
          {field('last_name', { autoComplete: 'off' })}
          {field('date_of_birth', { type: 'date' })}
          {field('parent_name', { autoComplete: 'off' })}
          {field('parent_email', {
            type: 'email',
            inputMode: 'email',
            autoComplete: 'off',
            description: 'We email the parent an invitation to their child’s page',
          })}
          {failure && !Object.keys(errors).length && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {done && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )}
          <Button type="submit" loading={busy} fullWidth>
            Add Pupil
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/** A blank list with the columns the import reads, made here (nothing to fetch). */
function blankListUrl(): string {
  const heading = PUPIL_COLUMNS.map((c) => c.heading).join(',');
  return URL.createObjectURL(new Blob([`\uFEFF${heading}\r\n`], { type: 'text/csv;charset=utf-8' }));
}

/** "Import a list": an .xlsx or .csv; a refused list shows each bad row, and nothing is saved. */
export function ImportPupils({ groupId, onAdded }: { groupId: number; onAdded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ message: string; rows: Array<[string, string]> } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setRefused(null);
    if (!file) return setFileError('Choose a list to import: an .xlsx or .csv file.');
    if (file.size > PUPIL_IMPORT_MAX_MB * 1024 * 1024)
      return setFileError(`The list must not be greater than ${PUPIL_IMPORT_MAX_MB} MB.`);
    setFileError(null);
    setBusy(true);
    const body = new FormData();
    body.append('file', file);
    try {
      const added = await api<PupilsAdded>(`/api/my/groups/${groupId}/pupils/import`, { method: 'POST', body });
      setDone(added.message);
      setFile(null);
      onAdded();
    } catch (e) {
      if (e instanceof ApiError && e.errors?.file) setFileError(e.errors.file[0] ?? e.message);
      else if (e instanceof ApiError && e.errors)
        setRefused({
          message: e.message.split('. Row ')[0] + '.',
          rows: Object.entries(e.errors).flatMap(([key, messages]) => {
            const [, row, name] = key.split('.');
            return messages.map((m): [string, string] => [`Row ${row}, ${FIELD_LABELS[name!] ?? name}`, m]);
          }),
        });
      else setFileError(e instanceof ApiError ? e.message : 'The list could not be sent. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section id="import-pupils" title="Import a list">
      <Text size="sm">
        A spreadsheet (.xlsx) or .csv whose first row names the columns {PUPIL_COLUMNS.map((c) => c.heading).join(', ')}
        . Every row is checked before any pupil is added.{' '}
        <Anchor href="#" download="pupils.csv" onClick={(e) => (e.currentTarget.href = blankListUrl())}>
          Download a blank list
        </Anchor>
      </Text>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <FileInput
            label="List of pupils"
            placeholder="Choose a file"
            // the theme's placeholder grey is too faint for the words a button says
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            value={file}
            onChange={(f) => (setFile(f), setFileError(null))}
            error={fileError}
            clearable
            required
          />
          {refused && (
            <Alert color="red" role="alert" title={refused.message}>
              <List size="sm" spacing={4}>
                {refused.rows.map(([where, message]) => (
                  <List.Item key={`${where}${message}`}>
                    <Text span fw={600} size="sm">
                      {where}:
                    </Text>{' '}
                    {message}
                  </List.Item>
                ))}
              </List>
            </Alert>
          )}
          {done && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )}
          <Button type="submit" loading={busy} variant="light" fullWidth>
            Import List
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/** The leader's one click for reminders (asked twice: it emails parents), and the list to download. */
export function GroupActions({
  groupId,
  behind,
  onSent,
}: {
  groupId: number;
  /** pupils not ready or with money overdue */
  behind: number;
  onSent: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async () => {
    setBusy(true);
    try {
      const sent = await api<GroupReminders>(`/api/my/groups/${groupId}/reminders`, { method: 'POST' });
      setResult({ ok: true, text: sent.message });
      onSent();
    } catch (e) {
      setResult({
        ok: false,
        text: e instanceof ApiError ? e.message : 'The reminders could not be sent. Please try again.',
      });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <Section id="group-actions" title="Reminders and the list">
      <Text size="sm">
        {behind === 0
          ? 'Every pupil is ready, with nothing overdue.'
          : `${behind} pupil${behind === 1 ? ' is' : 's are'} not ready or behind with payments. Their parents can be sent a reminder of what is missing, once a day.`}
      </Text>
      {result && (
        <Alert color={result.ok ? 'green' : 'red'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </Alert>
      )}
      {confirming ? (
        <Stack gap="xs" role="group" aria-label="Send reminders">
          <Text size="sm">
            Email the parents of the {behind} pupil{behind === 1 ? '' : 's'} not ready or behind now?
          </Text>
          <Group gap="xs" grow>
            <Button loading={busy} onClick={() => void send()}>
              Yes, Send Reminders
            </Button>
            <Button variant="default" onClick={() => setConfirming(false)}>
              Not Now
            </Button>
          </Group>
        </Stack>
      ) : (
        <Button onClick={() => (setResult(null), setConfirming(true))} disabled={behind === 0} fullWidth>
          Send Reminders
        </Button>
      )}
      <Button component="a" href={`/api/my/groups/${groupId}/list`} download variant="default" fullWidth>
        Download the List (.xlsx)
      </Button>
    </Section>
  );
}
