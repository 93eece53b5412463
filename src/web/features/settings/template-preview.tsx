import { Alert, Button, Code, Group, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useWatch, type Control, type UseFormSetError } from 'react-hook-form';
import { ServerAlert } from '../../components/form-frame.tsx';
import { useFormMutation } from '../../lib/mutation.ts';
import { previewTemplate, testTemplate, type Preview } from './api/email-templates.ts';
import type { EmailTemplateInput as TemplateForm } from '../../../contract/email-templates.ts';

type Props = {
  templateKey: string;
  control: Control<TemplateForm>;
  getDraft: () => TemplateForm;
  clearErrors: () => void;
  setError: UseFormSetError<TemplateForm>;
  booking: string;
  onBookingChange: (booking: string) => void;
};

// the HTML part as a mail program shows it, in a frame that runs nothing and reaches nothing
const htmlDocument = (html: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:16px;font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1b1e;background:#fff}p{margin:0 0 1em}</style></head><body>${html}</body></html>`;

function Line({ label, children }: { label: string; children: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={64} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid={`preview-${label.toLowerCase()}`}>
        {children}
      </Text>
    </Group>
  );
}

/** The email as a real booking's traveller would get it, from the wording being edited (saved or not). */
export function TemplatePreview({
  templateKey,
  control,
  getDraft,
  clearErrors,
  setError,
  booking,
  onBookingChange,
}: Props) {
  const [bookingError, setBookingError] = useState<string | undefined>();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [wordingRefused, setWordingRefused] = useState(false);
  const [subject, body] = useWatch({ control, name: ['subject', 'body'] });
  const previewing = useFormMutation<
    Parameters<typeof previewTemplate>[0],
    Preview,
    TemplateForm & { booking_id: string }
  >({
    mutationFn: previewTemplate,
    // a wording the server cannot read goes under its field on the left; the booking's, under the booking
    setError: (name, error) => {
      if (name === 'booking_id') return setBookingError(error.message);
      setWordingRefused(true);
      setError(name, error);
    },
    alertWithFieldErrors: false,
    fallback: 'Sorry, the preview could not be made. Please try again.',
    onSuccess: (result) => setPreview(result),
  });
  const [sent, setSent] = useState<string | null>(null);
  const testing = useFormMutation<
    Parameters<typeof testTemplate>[0],
    { message: string },
    TemplateForm & { booking_id: string }
  >({
    mutationFn: testTemplate,
    setError: (name, error) => {
      if (name === 'booking_id') return setBookingError(error.message);
      setWordingRefused(true);
      setError(name, error);
    },
    alertWithFieldErrors: false,
    fallback: 'Sorry, the test email could not be sent. Please try again.',
    onSuccess: (result) => setSent(result.message),
  });
  const sendTest = () => {
    setBookingError(undefined);
    setWordingRefused(false);
    setSent(null);
    previewing.clearFailure();
    clearErrors();
    const draft = getDraft();
    void testing.submit({ key: templateKey, booking, subject: draft.subject ?? '', body: draft.body ?? '' });
  };
  const run = async (e: FormEvent) => {
    e.preventDefault();
    setBookingError(undefined);
    setWordingRefused(false);
    setSent(null);
    testing.clearFailure();
    clearErrors();
    const draft = getDraft();
    // a preview that failed is not left showing as though it were the wording's
    if (!(await previewing.submit({ key: templateKey, booking, subject: draft.subject ?? '', body: draft.body ?? '' })))
      setPreview(null);
  };
  const stale = preview !== null && (preview.subject !== subject || preview.body !== body);
  const found = preview?.booking;

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Preview">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            Preview
          </Title>
          <Text size="sm" c="dimmed">
            The email as a booking’s traveller would get it today, with the wording as it is now, saved or not. Nothing
            is sent.
          </Text>
        </div>
        <form onSubmit={(e) => void run(e)} noValidate aria-label="Preview against a booking">
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label="Booking"
              placeholder="Its id or reference, e.g. TD-7KQ2M9"
              value={booking}
              onChange={(e) => onBookingChange(e.currentTarget.value)}
              error={bookingError}
              style={{ flex: 1 }}
              autoComplete="off"
            />
            <Button type="submit" mt={25} loading={previewing.isPending}>
              Preview
            </Button>
          </Group>
          <Group gap="xs" mt="xs" wrap="nowrap" align="center">
            <Button
              variant="default"
              size="xs"
              onClick={sendTest}
              loading={testing.isPending}
              style={{ flexShrink: 0 }}
            >
              Send me a test
            </Button>
            <Text size="xs" c="dimmed">
              Emails this booking’s email to you, never to the traveller.
            </Text>
          </Group>
        </form>
        {sent && (
          <Alert
            color="green"
            variant="light"
            role="status"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setSent(null)}
          >
            {sent}
          </Alert>
        )}
        <VisuallyHidden role="status">
          {preview ? `The email for ${preview.booking.ref ?? `booking ${preview.booking.id}`} is shown below.` : ''}
        </VisuallyHidden>
        <ServerAlert
          failure={
            previewing.failure ??
            testing.failure ??
            (wordingRefused
              ? 'The wording cannot be read, so there is nothing to preview: see the message under the field.'
              : null)
          }
          variant="light"
        />
        {preview && (
          <Stack gap="xs">
            {found?.ref && (
              <Text size="sm">
                For booking <strong>{found.ref}</strong>: {found.name}, {found.trip}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {templateKey.startsWith('reminder_')
                ? 'The invoice values are those of the booking’s first unpaid invoice on its schedule, or examples while it has none.'
                : templateKey === 'trip_documents'
                  ? 'The documents named are the trip’s uploaded ones, or examples while it has none.'
                  : templateKey === 'fundraising_summary'
                    ? 'The fundraisers are those of the booking’s charity, as its first portal user would get them, or an example charity when the booking has none.'
                    : templateKey === 'fundraising_milestone'
                      ? 'The figures are the booking’s own, with its next milestone, or examples while it has none ahead.'
                      : 'The reason is the booking’s own from its readiness check, or an example while the check is green.'}
            </Text>
            {stale && (
              <Text size="sm" c="orange.9">
                The wording has changed since this preview: press Preview to see it again.
              </Text>
            )}
            <Line label="To">{preview.mail.to}</Line>
            <Line label="Subject">{preview.mail.subject}</Line>
            <Text size="sm" fw={600} mt="xs">
              As HTML
            </Text>
            <iframe
              title="The email as HTML"
              sandbox=""
              srcDoc={htmlDocument(preview.mail.html)}
              style={{
                width: '100%',
                height: 300,
                border: '1px solid var(--mantine-color-gray-4)',
                borderRadius: 'var(--mantine-radius-sm)',
                background: '#fff',
              }}
            />
            <Text size="sm" fw={600} mt="xs">
              As plain text
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="preview-text">
              {preview.mail.text}
            </Code>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
