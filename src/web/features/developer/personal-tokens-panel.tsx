import { Anchor, Badge, Button, Checkbox, CopyButton, Group, Modal, SimpleGrid, Stack, Table, Text, Textarea, TextInput, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { PersonalToken } from '../../../contract/oauth.ts';
import { formatShortDate } from '../../lib/format.ts';
import { createPersonalToken, deletePersonalToken, developerKeys, usePersonalTokens, useScopes } from './api/developer.ts';
import { Panel } from './panel.tsx';
import { Whoops, whoopsMessages } from './whoops.tsx';

const expired = (t: PersonalToken) => Date.parse(t.expires_at) <= Date.now();

/** Spec §2 Personal Access Tokens panel, §4 token creation. */
export function PersonalTokensPanel() {
  const queryClient = useQueryClient();
  const tokens = usePersonalTokens();
  const scopes = useScopes();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [plain, setPlain] = useState<string | null>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const created = await createPersonalToken({ name, scopes: selected });
      // §4: the new record is appended to the list
      queryClient.setQueryData<PersonalToken[]>(developerKeys.tokens, (list) => [...(list ?? []), created.token]);
      setName('');
      setSelected([]);
      setErrors([]);
      setCreating(false);
      setPlain(created.accessToken);
    } catch (error) {
      setErrors(whoopsMessages(error));
    } finally {
      setBusy(false);
    }
  };

  // §4: deleting revokes the token and reloads the list; §5: no confirmation
  const remove = async (token: PersonalToken) => {
    await deletePersonalToken(token.id);
    await queryClient.invalidateQueries({ queryKey: developerKeys.tokens });
  };

  return (
    <Panel
      id="personal-tokens-heading"
      title="Personal Access Tokens"
      action="Create New Token"
      onAction={() => {
        setErrors([]);
        setCreating(true);
      }}
    >
      {tokens.data && tokens.data.length === 0 && <Text c="dimmed">You have not created any personal access tokens.</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" aria-labelledby="personal-tokens-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Delete</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td fw={500}>{t.name}</Table.Td>
                  <Table.Td>
                    {t.scopes.length ? (
                      <Group gap={4}>
                        {t.scopes.map((s) => (
                          <Badge key={s} variant="light" color="gray" tt="none" radius="sm">
                            {s}
                          </Badge>
                        ))}
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        None
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{t.last_used_at ? formatShortDate(t.last_used_at) : <Text size="sm" c="dimmed">Never</Text>}</Table.Td>
                  <Table.Td>
                    {formatShortDate(t.expires_at)}
                    {expired(t) && (
                      <Badge ml={6} color="red" variant="light" size="sm">
                        Expired
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" c="red.9" onClick={() => remove(t)} aria-label={`Delete ${t.name}`}>
                      Delete
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal opened={creating} onClose={() => setCreating(false)} title="Create Token" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={create} noValidate>
          <Stack>
            <Whoops messages={errors} />
            <TextInput label="Name" data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
            {scopes.data && scopes.data.length > 0 && (
              // §4: toggling a checkbox adds or removes its scope id from the selection
              <Checkbox.Group label="Scopes" value={selected} onChange={setSelected}>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm" mt={6}>
                  {scopes.data.map((s) => (
                    <Checkbox key={s.id} value={s.id} label={s.id} description={s.description} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCreating(false)}>
                Close
              </Button>
              <Button type="submit" loading={busy}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <Modal opened={plain !== null} onClose={() => setPlain(null)} title="Personal Access Token" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text>
            Here is your new personal access token. This is the only time it will be shown so don't lose it! You may now use this token to make
            API requests.
          </Text>
          <Textarea
            label="Token"
            readOnly
            autosize
            minRows={2}
            value={plain ?? ''}
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Group justify="flex-end">
            <CopyButton value={plain ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={() => setPlain(null)}>
              Close
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Panel>
  );
}
