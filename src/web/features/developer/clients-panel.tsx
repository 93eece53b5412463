import { ActionIcon, Anchor, Code, CopyButton, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OAuthClient } from '../../../contract/oauth.ts';
import { createClient, deleteClient, developerKeys, updateClient, useClients } from './api/developer.ts';
import { ClientFormModal, type ClientValues } from './client-form-modal.tsx';
import { Panel } from './panel.tsx';
import { whoopsMessages } from './whoops.tsx';

const empty: ClientValues = { name: '', redirect: '' };

// drawn here: the font has no copy or tick glyph, and an icon package for two icons is not worth it
const CopyIcon = () => (
  <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </svg>
);
const TickIcon = () => (
  <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M5 12l5 5L20 7" />
  </svg>
);

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Code style={{ whiteSpace: 'nowrap' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
            <ActionIcon variant="subtle" size="sm" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
              {copied ? <TickIcon /> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Spec §2 OAuth Clients panel; §4: the list reloads after every create, update and delete. */
export function ClientsPanel() {
  const queryClient = useQueryClient();
  const clients = useClients();
  const [mode, setMode] = useState<'create' | 'edit' | null>(null);
  const [editing, setEditing] = useState<OAuthClient | null>(null);
  const [createValues, setCreateValues] = useState<ClientValues>(empty);
  const [editValues, setEditValues] = useState<ClientValues>(empty);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const reload = () => queryClient.invalidateQueries({ queryKey: developerKeys.clients });

  const save = async () => {
    setBusy(true);
    try {
      if (mode === 'edit' && editing) {
        await updateClient(editing.id, editValues);
        setEditValues(empty);
      } else {
        await createClient(createValues);
        setCreateValues(empty);
      }
      setErrors([]);
      setMode(null);
      setEditing(null);
      await reload();
    } catch (error) {
      setErrors(whoopsMessages(error));
    } finally {
      setBusy(false);
    }
  };

  const startEdit = (client: OAuthClient) => {
    setEditing(client);
    setEditValues({ name: client.name, redirect: client.redirect });
    setErrors([]);
    setMode('edit');
  };

  // spec §5: no confirmation
  const remove = async (client: OAuthClient) => {
    await deleteClient(client.id);
    await reload();
  };

  return (
    <Panel
      id="oauth-clients-heading"
      title="OAuth Clients"
      action="Create New Client"
      onAction={() => {
        setErrors([]);
        setMode('create');
      }}
    >
      {clients.data && clients.data.length === 0 && <Text c="dimmed">You have not created any OAuth clients.</Text>}
      {clients.data && clients.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" aria-labelledby="oauth-clients-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Client ID</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Secret</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Edit</VisuallyHidden>
                </Table.Th>
                <Table.Th>
                  <VisuallyHidden>Delete</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clients.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Copyable value={c.id} label={`client ID of ${c.name}`} />
                  </Table.Td>
                  <Table.Td>
                    <Text fw={500} size="sm">
                      {c.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {c.redirect}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Copyable value={c.secret} label={`secret of ${c.name}`} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => startEdit(c)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" c="red.9" onClick={() => remove(c)} aria-label={`Delete ${c.name}`}>
                      Delete
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ClientFormModal
        opened={mode === 'create'}
        title="Create Client"
        submitLabel="Create"
        values={createValues}
        errors={mode === 'create' ? errors : []}
        busy={busy}
        onChange={setCreateValues}
        onSubmit={save}
        onClose={() => setMode(null)}
      />
      <ClientFormModal
        opened={mode === 'edit'}
        title="Edit Client"
        submitLabel="Save Changes"
        values={editValues}
        errors={mode === 'edit' ? errors : []}
        busy={busy}
        onChange={setEditValues}
        onSubmit={save}
        onClose={() => setMode(null)}
      />
    </Panel>
  );
}
