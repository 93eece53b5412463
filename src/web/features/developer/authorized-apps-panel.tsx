import { Anchor, Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthorizedApplication } from '../../../contract/oauth.ts';
import { formatShortDate } from '../../lib/format.ts';
import { developerKeys, revokeApplication, useApplications } from './api/developer.ts';
import { Panel } from './panel.tsx';

/** Spec §2 Authorized applications: one row per application (not per token), with Revoke. */
export function AuthorizedAppsPanel() {
  const queryClient = useQueryClient();
  const apps = useApplications();

  const revoke = async (app: AuthorizedApplication) => {
    await revokeApplication(app.id);
    await queryClient.invalidateQueries({ queryKey: developerKeys.applications });
  };

  return (
    <Panel id="authorized-apps-heading" title="Authorized Applications">
      {apps.data && apps.data.length === 0 && <Text c="dimmed">You have not authorized any applications to use your account.</Text>}
      {apps.data && apps.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" aria-labelledby="authorized-apps-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Revoke</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {apps.data.map((a) => (
                <Table.Tr key={a.client.id}>
                  <Table.Td fw={500}>{a.client.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {a.scopes.map((s) => (
                        <Badge key={s} variant="light" color="gray" tt="none" radius="sm">
                          {s}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{a.last_used_at ? formatShortDate(a.last_used_at) : <Text size="sm" c="dimmed">Never</Text>}</Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" c="red.9" onClick={() => revoke(a)} aria-label={`Revoke ${a.client.name}`}>
                      Revoke
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Panel>
  );
}
