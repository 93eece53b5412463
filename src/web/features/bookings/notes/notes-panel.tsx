import { Alert, Button, Group, Text, Typography } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import type { Note } from '../../../../contract/notes.ts';
import { NOTES_EMPTY_TEXT } from '../../../../contract/constants.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DestructiveButton, ServerAlert } from '../../../components/form-frame.tsx';
import { formatLongDate } from '../../../lib/format.ts';
import { useFormMutation } from '../../../lib/mutation.ts';
import { useCan } from '../../../lib/session.tsx';
import { createNote, deleteNote, noteChangeKeys, updateNote, useNotes } from '../api/notes.ts';
import { BookingPanel } from '../booking-panel.tsx';
import type { NoteEditorHandle } from './note-editor.tsx';

// TipTap loads with the panel, not with the booking page's first paint
const NoteEditor = lazy(() => import('./note-editor.tsx'));

const time = (iso: string) =>
  `${formatLongDate(iso)} at ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' })}`;
// a note saved and never changed has its two times within the same instant
const wasEdited = (n: Note) => Date.parse(n.updated_at) - Date.parse(n.created_at) > 1000;

/**
 * Spec §2 Notes panel: a rich-text editor above the booking's notes, newest first. A team that may
 * only read bookings sees the notes, without the editor.
 */
export function NotesPanel({ bookingId }: { bookingId: number }) {
  const changes = useCan()('bookings');
  const notes = useNotes(bookingId);
  const queryClient = useQueryClient();
  const editor = useRef<NoteEditorHandle>(null);
  const [editing, setEditing] = useState<Note | null>(null);
  // what the panel itself has to say (an empty editor)
  const [nothingWritten, setNothingWritten] = useState(false);
  // a note asked to be edited while the editor holds unsaved writing: ask before replacing it
  const [replacing, setReplacing] = useState<Note | null>(null);
  const changed = noteChangeKeys(bookingId);

  const cancel = () => {
    setEditing(null);
    clearMessages();
    editor.current?.clear();
  };
  const saving = useFormMutation({
    mutationFn: ({ note, html }: { note: Note | null; html: string }) =>
      note ? updateNote(note.id, html) : createNote({ booking_id: bookingId, note_text: html }),
    invalidate: changed,
    fallback: 'Sorry, the note could not be saved. Please try again.',
    onSuccess: cancel,
  });
  const removing = useFormMutation({
    mutationFn: (note: Note) => deleteNote(note.id),
    invalidate: changed,
    fallback: 'Sorry, an error occurred. Please refresh the page and try again.',
    onSuccess: (_, note) => {
      if (editing?.id === note.id) cancel();
    },
  });
  const clearMessages = () => {
    setNothingWritten(false);
    saving.clearFailure();
    removing.clearFailure();
  };

  const save = async () => {
    clearMessages();
    if (!editor.current || editor.current.isEmpty()) {
      setNothingWritten(true);
      return;
    }
    await saving.submit({ note: editing, html: editor.current.getHtml() });
  };

  const remove = async (note: Note) => {
    clearMessages();
    // a note already gone (a colleague's delete) leaves the list as it now is
    if (!(await removing.submit(note))) changed.forEach((queryKey) => void queryClient.invalidateQueries({ queryKey }));
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
    clearMessages();
    editor.current?.setHtml(note.note_text);
    editor.current?.focus();
    document.getElementById('notes')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  const columns: Array<Column<Note>> = [
    {
      key: 'note',
      label: 'Note',
      cell: (n) => (
        <Typography fz="sm">
          {/* sanitised by the server with an allow-list (no scripts, handlers, styles or javascript: links) */}
          <div dangerouslySetInnerHTML={{ __html: n.note_text }} />
        </Typography>
      ),
      cellProps: () => ({ w: '60%' }),
    },
    {
      key: 'written',
      label: 'Written by',
      cell: (n) => (
        <>
          <Text size="sm">{n.user ? n.user.name : 'A former user'}</Text>
          <Text size="xs" c="dimmed">
            {time(n.created_at)}
            {n.ip_address && ` · IP ${n.ip_address}`}
          </Text>
          {wasEdited(n) && (
            <Text size="xs" c="dimmed">
              edited {time(n.updated_at)}
            </Text>
          )}
        </>
      ),
    },
  ];
  if (changes)
    columns.push({
      key: 'action',
      label: 'Action',
      cell: (n) => (
        <Group gap={6} wrap="nowrap" w="max-content">
          <Button
            size="xs"
            variant="default"
            onClick={() => edit(n)}
            aria-label={`Edit the note of ${time(n.created_at)}`}
          >
            Edit
          </Button>
          <DestructiveButton
            size="xs"
            label="Delete"
            ariaLabel={`Delete the note of ${time(n.created_at)}`}
            title="Delete note"
            message="Are you sure you want to delete this note? This cannot be undone."
            confirmLabel="Yes, Delete the Note"
            cancelLabel="No, Cancel"
            onConfirm={() => remove(n)}
          />
        </Group>
      ),
    });

  return (
    <BookingPanel id="notes" title="Notes">
      {editing && (
        <Text size="sm" c="blue.9" fw={600}>
          Editing the note by {editing.user?.name ?? 'a former user'} of {time(editing.created_at)}
        </Text>
      )}
      {changes && (
        <>
          <Suspense
            fallback={
              <Text size="sm" c="dimmed">
                Loading the editor…
              </Text>
            }
          >
            <NoteEditor ref={editor} label={editing ? 'Edit note' : 'New note'} />
          </Suspense>
          {nothingWritten && (
            <Alert color="red" variant="light" role="alert">
              Please write a note first.
            </Alert>
          )}
          <ServerAlert failure={saving.failure ?? removing.failure} variant="light" />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={saving.isPending}>
              {editing ? 'Update Note' : 'Add Note'}
            </Button>
          </Group>
        </>
      )}
      <DataTable
        columns={columns}
        query={notes}
        failed="The notes could not be loaded. Please refresh the page and try again."
        rowKey={(n) => n.id}
        empty={NOTES_EMPTY_TEXT}
        rowProps={(n) => ({ 'data-testid': 'note', bg: editing?.id === n.id ? 'blue.0' : undefined })}
      />
      <ConfirmDialog
        opened={replacing !== null}
        title="Discard your writing?"
        message="The editor holds a note that has not been saved. Discard it and edit the other note?"
        confirmLabel="Yes, Discard it"
        cancelLabel="No, Keep Writing"
        onCancel={() => setReplacing(null)}
        onConfirm={() => replacing && edit(replacing)}
      />
    </BookingPanel>
  );
}
