import { Alert, Button, Group, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import type { Note } from '../../../../contract/notes.ts';
import { NOTES_EMPTY_TEXT } from '../../../../contract/constants.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatLongDate } from '../../../lib/format.ts';
import { createNote, deleteNote, noteKeys, updateNote, useNotes } from '../api/notes.ts';
import type { NoteEditorHandle } from './note-editor.tsx';

const NoteEditor = lazy(() => import('./note-editor.tsx'));

const time = (iso: string) => `${formatLongDate(iso)} at ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' })}`;
// a note saved and never changed has its two times within the same instant
const wasEdited = (n: Note) => Date.parse(n.updated_at) - Date.parse(n.created_at) > 1000;

/** Spec §2 Notes panel: a rich-text editor above the booking's notes, newest first. */
export function NotesPanel({ bookingId }: { bookingId: number }) {
  const notes = useNotes(bookingId);
  const queryClient = useQueryClient();
  const editor = useRef<NoteEditorHandle>(null);
  const [editing, setEditing] = useState<Note | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Note | null>(null);
  // a note asked to be edited while the editor holds unsaved writing: ask before replacing it
  const [replacing, setReplacing] = useState<Note | null>(null);

  const reload = () => queryClient.invalidateQueries({ queryKey: noteKeys.forBooking(bookingId) });
  const cancel = () => {
    setEditing(null);
    setError(null);
    editor.current?.clear();
  };

  const save = async () => {
    const html = editor.current?.getHtml() ?? '';
    if (!editor.current || editor.current.isEmpty()) {
      setError('Please write a note first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (editing) await updateNote(editing.id, html);
      else await createNote({ booking_id: bookingId, note_text: html });
      cancel();
      await reload();
    } catch (e) {
      setError(e instanceof ApiError && e.status === 422 ? e.message : 'Sorry, the note could not be saved. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const unsaved = () => {
    const current = editor.current;
    if (!current || current.isEmpty()) return false;
    return editing ? current.getHtml() !== editing.note_text : true;
  };

  const edit = (note: Note) => {
    if (unsaved() && replacing?.id !== note.id) {
      setReplacing(note);
      return;
    }
    setReplacing(null);
    setEditing(note);
    setError(null);
    editor.current?.setHtml(note.note_text);
    editor.current?.focus();
    document.getElementById('notes')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  const remove = async (note: Note) => {
    setBusy(true);
    try {
      await deleteNote(note.id);
      if (editing?.id === note.id) cancel();
    } catch {
      setError('Sorry, an error occurred. Please refresh the page and try again.');
    } finally {
      setBusy(false);
      setConfirming(null);
      await reload();
    }
  };

  return (
    <Paper withBorder p="md" radius="md" id="notes" component="section" aria-labelledby="notes-heading">
      <Title order={2} size="h4" id="notes-heading" mb="sm">
        Notes
      </Title>
      <Stack>
        {editing && (
          <Text size="sm" c="blue.9" fw={600}>
            Editing the note by {editing.user?.name ?? 'a former user'} of {time(editing.created_at)}
          </Text>
        )}
        <Suspense fallback={<Text size="sm" c="dimmed">Loading the editor…</Text>}>
          <NoteEditor ref={editor} label={editing ? 'Edit note' : 'New note'} />
        </Suspense>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={busy}>
            {editing ? 'Update Note' : 'Add Note'}
          </Button>
        </Group>

        {notes.isPending ? (
          <Text size="sm" c="dimmed">Loading notes…</Text>
        ) : notes.isError ? (
          <Alert color="red" role="alert">
            The notes could not be loaded. Please refresh the page and try again.
          </Alert>
        ) : notes.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {NOTES_EMPTY_TEXT}
          </Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {notes.data.map((n) => (
              <Paper key={n.id} component="li" withBorder p="sm" radius="sm" bg={editing?.id === n.id ? 'blue.0' : undefined} data-testid="note">
                <Typography fz="sm">
                  {/* sanitised by the server with an allow-list (no scripts, handlers, styles or javascript: links) */}
                  <div dangerouslySetInnerHTML={{ __html: n.note_text }} />
                </Typography>
                <Group justify="space-between" mt="xs" align="flex-end">
                  <Text size="xs" c="dimmed">
                    {n.user ? n.user.name : 'A former user'} · {time(n.created_at)}
                    {n.ip_address && ` · IP ${n.ip_address}`}
                    {wasEdited(n) && ` · edited ${time(n.updated_at)}`}
                  </Text>
                  <Group gap={6}>
                    <Button size="compact-sm" variant="default" onClick={() => edit(n)}>
                      Edit
                    </Button>
                    <Button size="compact-sm" variant="light" color="red" onClick={() => setConfirming(n)}>
                      Delete
                    </Button>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={replacing !== null}
        title="Discard your writing?"
        message="The editor holds a note that has not been saved. Discard it and edit the other note?"
        confirmLabel="Yes, Discard it"
        cancelLabel="No, Keep Writing"
        onCancel={() => setReplacing(null)}
        onConfirm={() => replacing && edit(replacing)}
      />
      <ConfirmDialog
        opened={confirming !== null}
        title="Delete note"
        message="Are you sure you want to delete this note? This cannot be undone."
        confirmLabel="Yes, Delete the Note"
        cancelLabel="No, Cancel"
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void remove(confirming)}
      />
    </Paper>
  );
}
