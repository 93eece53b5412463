import { Anchor, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { routes } from '../../../contract/paths.ts';
import { mayOpen, SETTINGS_PAGES } from '../../lib/nav.ts';
import { useCan } from '../../lib/session.tsx';

/** The settings screens the member's team may read, one link each; the current one is marked (aria-current). */
export function SettingsNav() {
  const { pathname } = useLocation();
  const may = useCan();
  return (
    <Group component="nav" aria-label="Settings" gap="md">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        Settings
      </Text>
      {SETTINGS_PAGES.filter((p) => mayOpen(p.name, may)).map((p) => {
        const to = routes[p.name];
        const current = pathname === to;
        return (
          <Anchor
            key={to}
            component={Link}
            to={to}
            size="sm"
            fw={600}
            underline={current ? 'always' : 'hover'}
            c={current ? 'var(--mantine-color-text)' : undefined}
            aria-current={current ? 'page' : undefined}
          >
            {p.label}
          </Anchor>
        );
      })}
    </Group>
  );
}
