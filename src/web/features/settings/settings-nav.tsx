import { Anchor, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { routes } from '../../../contract/paths.ts';

const PAGES = [
  { to: routes['settings-emails'], label: 'Email templates' },
  { to: routes['settings-countries'], label: 'Passport rules' },
  { to: routes['settings-changes'], label: 'Fees for changes' },
] as const;

/** The settings screens, one link each; the current one is marked (aria-current) and plain text colour. */
export function SettingsNav() {
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label="Settings" gap="md">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        Settings
      </Text>
      {PAGES.map((p) => {
        const current = pathname === p.to;
        return (
          <Anchor
            key={p.to}
            component={Link}
            to={p.to}
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
