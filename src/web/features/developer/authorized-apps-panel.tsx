import { Anchor, VisuallyHidden } from '@mantine/core';
import type { AuthorizedApplication } from '../../../contract/oauth.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormMutation } from '../../lib/mutation.ts';
import { developerKeys, revokeApplication, useApplications } from './api/developer.ts';
import { Panel } from './panel.tsx';
import { LastUsed, ScopeBadges } from './cells.tsx';

/** Spec §2 Authorized applications: one row per application (not per token), with Revoke. */
export function AuthorizedAppsPanel() {
  const apps = useApplications();
  const revoking = useFormMutation({
    mutationFn: (app: AuthorizedApplication) => revokeApplication(app.id),
    invalidate: [developerKeys.applications],
    fallback: 'Sorry, the application could not be revoked. Please try again.',
  });

  const columns: Array<Column<AuthorizedApplication>> = [
    { key: 'name', label: 'Name', cell: (a) => a.client.name, cellProps: () => ({ fw: 500 }) },
    { key: 'scopes', label: 'Scopes', cell: (a) => <ScopeBadges scopes={a.scopes} /> },
    { key: 'used', label: 'Last used', cell: (a) => <LastUsed at={a.last_used_at} /> },
    {
      key: 'revoke',
      label: <VisuallyHidden>Revoke</VisuallyHidden>,
      cell: (a) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="red.9"
          onClick={() => void revoking.submit(a)}
          aria-label={`Revoke ${a.client.name}`}
        >
          Revoke
        </Anchor>
      ),
    },
  ];

  return (
    <Panel id="authorized-apps-heading" title="Authorized Applications" failure={revoking.failure}>
      <DataTable
        columns={columns}
        query={apps}
        failed="The authorized applications could not be loaded. Please refresh the page and try again."
        rowKey={(a) => a.client.id}
        empty="You have not authorized any applications to use your account."
        tableProps={{ 'aria-labelledby': 'authorized-apps-heading' }}
      />
    </Panel>
  );
}
