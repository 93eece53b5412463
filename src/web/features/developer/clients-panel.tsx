import { ActionIcon, Anchor, Code, CopyButton, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { OAuthClient } from '../../../contract/oauth.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { useFormMutation } from '../../lib/mutation.ts';
import { deleteClient, developerKeys, useClients } from './api/developer.ts';
import { Panel } from './panel.tsx';

// the Create Client and Edit Client modals load when first opened
const ClientFormDialog = lazyComponent(() => import('./client-form-dialog.tsx').then((m) => m.ClientFormDialog));

// drawn here: the font has no copy or tick glyph, and an icon package for two icons is not worth it
const CopyIcon = () => (
  <svg
    width="14"
    height="14"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </svg>
);
const TickIcon = () => (
  <svg
    width="14"
    height="14"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2.5"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
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
            <ActionIcon
              variant="subtle"
              size="sm"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={`Copy ${label}`}
            >
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
  const clients = useClients();
  // null: no modal; 'new': Create Client; a client: Edit Client
  const [editing, setEditing] = useState<OAuthClient | 'new' | null>(null);
  // spec §5: no confirmation
  const deleting = useFormMutation({
    mutationFn: (client: OAuthClient) => deleteClient(client.id),
    invalidate: [developerKeys.clients],
    fallback: 'Sorry, the client could not be deleted. Please try again.',
  });

  const columns: Array<Column<OAuthClient>> = [
    { key: 'id', label: 'Client ID', cell: (c) => <Copyable value={c.id} label={`client ID of ${c.name}`} /> },
    {
      key: 'name',
      label: 'Name',
      cell: (c) => (
        <>
          <Text fw={500} size="sm">
            {c.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {c.redirect}
          </Text>
        </>
      ),
    },
    { key: 'secret', label: 'Secret', cell: (c) => <Copyable value={c.secret} label={`secret of ${c.name}`} /> },
    {
      key: 'edit',
      label: <VisuallyHidden>Edit</VisuallyHidden>,
      cell: (c) => (
        <Anchor component="button" type="button" size="sm" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
          Edit
        </Anchor>
      ),
    },
    {
      key: 'delete',
      label: <VisuallyHidden>Delete</VisuallyHidden>,
      cell: (c) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="red.9"
          onClick={() => void deleting.submit(c)}
          aria-label={`Delete ${c.name}`}
        >
          Delete
        </Anchor>
      ),
    },
  ];

  return (
    <Panel
      id="oauth-clients-heading"
      title="OAuth Clients"
      action="Create New Client"
      onAction={() => setEditing('new')}
      failure={deleting.failure}
    >
      <DataTable
        columns={columns}
        query={clients}
        failed="The OAuth clients could not be loaded. Please refresh the page and try again."
        rowKey={(c) => c.id}
        empty="You have not created any OAuth clients."
        tableProps={{ 'aria-labelledby': 'oauth-clients-heading' }}
      />
      {editing && (
        <ClientFormDialog
          key={editing === 'new' ? 'new' : editing.id}
          client={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Panel>
  );
}
