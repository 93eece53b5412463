import { Anchor, Badge, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { PersonalToken } from '../../../contract/oauth.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { lazyComponent } from '../../components/lazy.tsx';
import { formatShortDate } from '../../lib/format.ts';
import { useFormMutation } from '../../lib/mutation.ts';
import { deletePersonalToken, developerKeys, usePersonalTokens, useScopes } from './api/developer.ts';
import { LastUsed, ScopeBadges } from './cells.tsx';
import { Panel } from './panel.tsx';

// the Create Token and Personal Access Token modals load when first opened
const TokenFormDialog = lazyComponent(() => import('./token-form-dialog.tsx').then((m) => m.TokenFormDialog));
const TokenShownDialog = lazyComponent(() => import('./token-shown-dialog.tsx').then((m) => m.TokenShownDialog));

const expired = (t: PersonalToken) => Date.parse(t.expires_at) <= Date.now();

/** Spec §2 Personal Access Tokens panel, §4 token creation. */
export function PersonalTokensPanel() {
  const tokens = usePersonalTokens();
  // asked with the page, so the Create Token modal opens with its checkboxes
  useScopes();
  const [creating, setCreating] = useState(false);
  const [plain, setPlain] = useState<string | null>(null);
  // §4: deleting revokes the token and reloads the list; §5: no confirmation
  const deleting = useFormMutation({
    mutationFn: (token: PersonalToken) => deletePersonalToken(token.id),
    invalidate: [developerKeys.tokens],
    fallback: 'Sorry, the token could not be deleted. Please try again.',
  });

  const columns: Array<Column<PersonalToken>> = [
    { key: 'name', label: 'Name', cell: (t) => t.name, cellProps: () => ({ fw: 500 }) },
    { key: 'scopes', label: 'Scopes', cell: (t) => <ScopeBadges scopes={t.scopes} /> },
    { key: 'used', label: 'Last used', cell: (t) => <LastUsed at={t.last_used_at} /> },
    {
      key: 'expires',
      label: 'Expires',
      cell: (t) => (
        <>
          {formatShortDate(t.expires_at)}
          {expired(t) && (
            <Badge ml={6} color="red" variant="light" size="sm">
              Expired
            </Badge>
          )}
        </>
      ),
    },
    {
      key: 'delete',
      label: <VisuallyHidden>Delete</VisuallyHidden>,
      cell: (t) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="red.9"
          onClick={() => void deleting.submit(t)}
          aria-label={`Delete ${t.name}`}
        >
          Delete
        </Anchor>
      ),
    },
  ];

  return (
    <Panel
      id="personal-tokens-heading"
      title="Personal Access Tokens"
      action="Create New Token"
      onAction={() => setCreating(true)}
      failure={deleting.failure}
    >
      <DataTable
        columns={columns}
        query={tokens}
        failed="The personal access tokens could not be loaded. Please refresh the page and try again."
        rowKey={(t) => t.id}
        empty="You have not created any personal access tokens."
        tableProps={{ 'aria-labelledby': 'personal-tokens-heading' }}
      />
      {creating && (
        <TokenFormDialog
          onClose={() => setCreating(false)}
          onCreated={(accessToken) => {
            // §4: the create modal closes and the one-time token modal opens
            setCreating(false);
            setPlain(accessToken);
          }}
        />
      )}
      {plain !== null && <TokenShownDialog token={plain} onClose={() => setPlain(null)} />}
    </Panel>
  );
}
