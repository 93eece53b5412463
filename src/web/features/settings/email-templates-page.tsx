import { Badge, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import type { EmailTemplate } from '../../../contract/email-templates.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { RecordLoader } from '../../components/form-frame.tsx';
import { useTemplates } from './api/email-templates.ts';
import { SettingsNav } from './settings-nav.tsx';
import { TemplateEditor } from './template-editor.tsx';

/**
 * /settings/emails: the wording of the emails Tripdesk sends travellers by itself,
 * one tab per email; each edited, previewed against a real booking and saved.
 */
export default function EmailTemplatesPage() {
  const templates = useTemplates();
  const [params, setParams] = useSearchParams();
  // which tabs hold wording not saved yet
  const [unsaved, setUnsaved] = useState<Record<string, boolean>>({});
  // the booking previews are for, kept across the tabs
  const [booking, setBooking] = useState('');

  const markUnsaved = (key: string, dirty: boolean) =>
    setUnsaved((u) => (Boolean(u[key]) === dirty ? u : { ...u, [key]: dirty }));
  // leaving the screen (not switching tabs) with wording not saved asks first
  const anyUnsaved = Object.values(unsaved).some(Boolean);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => anyUnsaved && currentLocation.pathname !== nextLocation.pathname,
  );

  return (
    <Stack>
      <SettingsNav />
      <div>
        <Title order={1}>Email templates</Title>
        <Text c="dimmed" size="sm" maw={760}>
          The wording of the emails Tripdesk sends travellers: payment reminders, passport and forms chasers, and the
          trip’s documents. Placeholders such as{' '}
          <Text span ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
            {'{{ traveller.first_name }}'}
          </Text>{' '}
          are filled in for each booking when the email is sent.
        </Text>
      </div>
      <RecordLoader
        query={templates}
        failed="The email templates could not be loaded. Please refresh the page and try again."
      >
        {(list: EmailTemplate[]) => {
          const requested = params.get('email');
          const current = list.find((t) => t.key === requested)?.key ?? list[0]?.key ?? null;
          return (
            <Tabs value={current} onChange={(key) => key && setParams({ email: key }, { replace: true })} keepMounted>
              <Tabs.List>
                {list.map((t) => (
                  <Tabs.Tab
                    key={t.key}
                    value={t.key}
                    rightSection={
                      t.is_default ? undefined : (
                        <Badge size="xs" variant="light" color="gray">
                          Changed
                        </Badge>
                      )
                    }
                  >
                    {t.name}
                    {unsaved[t.key] && (
                      <>
                        <Text span c="orange.8" fw={700} aria-hidden="true">
                          {' '}
                          •
                        </Text>
                        <VisuallyHidden> (unsaved changes)</VisuallyHidden>
                      </>
                    )}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              {list.map((t) => (
                <Tabs.Panel key={t.key} value={t.key} pt="md">
                  <TemplateEditor
                    template={t}
                    onDirtyChange={(dirty) => markUnsaved(t.key, dirty)}
                    booking={booking}
                    onBookingChange={setBooking}
                  />
                </Tabs.Panel>
              ))}
            </Tabs>
          );
        }}
      </RecordLoader>
      <ConfirmDialog
        opened={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="The wording you changed has not been saved. If you leave now, the changes are lost."
        cancelLabel="Stay"
        confirmLabel="Leave without saving"
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      />
    </Stack>
  );
}
