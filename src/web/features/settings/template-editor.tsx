import { Badge, Button, Code, Grid, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { EmailTemplate, EmailTemplateInput, emailTemplateInputSchema } from '../../../contract/email-templates.ts';
import { DestructiveButton, ServerAlert } from '../../components/form-frame.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { useCan } from '../../lib/session.tsx';
import { resetTemplate, saveTemplate, templateKeys } from './api/email-templates.ts';
import { TemplatePreview } from './template-preview.tsx';

type TemplateForm = EmailTemplateInput;
type Field = keyof TemplateForm;

// the contract's limits (kept here so the screen does not load zod to know them)
const SUBJECT_MAX = 200;
const BODY_MAX = 20_000;

type Props = {
  template: EmailTemplate;
  onDirtyChange: (dirty: boolean) => void;
  booking: string;
  onBookingChange: (booking: string) => void;
};

/**
 * One email's subject and body, its placeholders, Save, and its preview beside it; a team without
 * settings change reads the wording only (saving, previewing and test-sending are all changes).
 */
export function TemplateEditor({ template, onDirtyChange, booking, onBookingChange }: Props) {
  const may = useCan();
  const canChange = may('settings');
  const form = useForm<TemplateForm, unknown, z.output<typeof emailTemplateInputSchema>>({
    resolver: lazyZodResolver(() =>
      import('../../../contract/email-templates.ts').then((m) => m.emailTemplateInputSchema),
    ),
    defaultValues: { subject: template.subject, body: template.body },
  });
  const { isDirty, errors } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  const [savedAt, setSavedAt] = useState<string | null>(null);

  const saving = useFormMutation({
    mutationFn: saveTemplate,
    invalidate: [templateKeys.all],
    setError: form.setError,
    alertWithFieldErrors: false,
    fallback: 'Sorry, the email could not be saved. Please try again.',
    onSuccess: (saved) => {
      form.reset({ subject: saved.subject, body: saved.body });
      setSavedAt(formatDateTime(saved.updated_at ?? new Date()));
    },
  });
  const resetting = useFormMutation({
    mutationFn: resetTemplate,
    invalidate: [templateKeys.all],
    fallback: 'Sorry, the wording could not be put back. Please try again.',
    onSuccess: (reset) => {
      form.reset({ subject: reset.subject, body: reset.body });
      setSavedAt(null);
    },
  });
  const save = form.handleSubmit((values) => {
    setSavedAt(null);
    return saving.submit({ key: template.key, ...values });
  });

  // a placeholder goes where the cursor was in the field last used (the body unless the subject was)
  const ids = { subject: useId(), body: useId() };
  const [lastField, setLastField] = useState<Field>('body');
  const insert = (placeholder: string) => {
    const el = document.getElementById(ids[lastField]) as HTMLInputElement | HTMLTextAreaElement | null;
    const value = form.getValues(lastField) ?? '';
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const text = `{{ ${placeholder} }}`;
    form.setValue(lastField, value.slice(0, start) + text + value.slice(end), { shouldDirty: true });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const field = (name: Field) => ({
    ...form.register(name),
    id: ids[name],
    onFocus: () => setLastField(name),
    error: errors[name]?.message,
    readOnly: !canChange,
  });
  const placeholdersId = useId();

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: canChange ? 7 : 12 }}>
        <Paper
          withBorder
          p="lg"
          radius="md"
          component="form"
          onSubmit={save}
          noValidate
          aria-label={`The wording of “${template.name}”`}
        >
          <Stack>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Title order={2} size="h4">
                {template.name}
              </Title>
              {template.is_default ? (
                <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
                  Tripdesk’s default wording
                </Badge>
              ) : (
                <Badge
                  variant="light"
                  color="gray"
                  style={{ flexShrink: 0 }}
                  title="Staff have changed Tripdesk's wording"
                >
                  {template.updated_at ? `Changed ${formatDateTime(template.updated_at)}` : 'Changed'}
                </Badge>
              )}
            </Group>
            <ServerAlert failure={saving.failure ?? resetting.failure} />
            <TextInput label="Subject" required maxLength={SUBJECT_MAX} {...field('subject')} />
            <Textarea
              label="Body"
              required
              description="Plain text: leave a blank line between paragraphs."
              rows={14}
              resize="vertical"
              maxLength={BODY_MAX}
              styles={{ input: { lineHeight: 1.5 } }}
              {...field('body')}
            />
            <div role="group" aria-labelledby={placeholdersId}>
              <Text size="sm" fw={500} id={placeholdersId}>
                Placeholders
              </Text>
              <Text size="xs" c="dimmed" mb={6}>
                {canChange && 'Click one to put it where the cursor is in the subject or body. '}Every value is sent as
                text, never as code.
              </Text>
              <Group gap={6}>
                {template.placeholders.map((p) =>
                  canChange ? (
                    <Button
                      key={p}
                      size="compact-xs"
                      variant="default"
                      ff="monospace"
                      fw={400}
                      onClick={() => insert(p)}
                    >
                      {`{{ ${p} }}`}
                    </Button>
                  ) : (
                    <Code key={p}>{`{{ ${p} }}`}</Code>
                  ),
                )}
              </Group>
            </div>
            {canChange && (
              <Group gap="sm">
                <Button type="submit" loading={saving.isPending}>
                  Save
                </Button>
                {isDirty && (
                  <Button variant="default" onClick={() => form.reset()}>
                    Discard changes
                  </Button>
                )}
                <Text size="sm" role="status">
                  {savedAt && !isDirty ? `Saved at ${savedAt.split(', ')[1] ?? savedAt}.` : ''}
                </Text>
                {!template.is_default && (
                  <Group ml="auto">
                    <DestructiveButton
                      label="Back to Tripdesk’s wording"
                      title="Back to Tripdesk’s wording?"
                      message={`The subject and body of “${template.name}” go back to Tripdesk’s own wording, and the wording staff gave it is lost.`}
                      confirmLabel="Use Tripdesk’s wording"
                      cancelLabel="Keep this wording"
                      size="sm"
                      variant="outline"
                      onConfirm={() => resetting.submit(template.key)}
                    />
                  </Group>
                )}
              </Group>
            )}
          </Stack>
        </Paper>
      </Grid.Col>
      {canChange && (
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <TemplatePreview
            templateKey={template.key}
            control={form.control}
            getDraft={() => form.getValues()}
            clearErrors={() => form.clearErrors()}
            setError={form.setError}
            booking={booking}
            onBookingChange={onBookingChange}
          />
        </Grid.Col>
      )}
    </Grid>
  );
}
