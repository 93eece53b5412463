import { Anchor, AppShell, Box, Button, Container, Group, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { NavLink, Outlet, useLocation } from 'react-router';
import { path, type RouteName } from '../../contract/paths.ts';
import { api } from '../lib/api.ts';
import { pushFlash } from '../lib/flash.ts';
import { isCharityPartner, isStaff, useCurrentUser } from '../lib/session.tsx';
import { FlashMessages } from '../components/flash-messages.tsx';
import classes from './layout.module.css';

const STAFF_NAV: Array<[RouteName, string]> = [
  ['booking-list', 'Bookings'],
  ['trip-list', 'Trips'],
  ['money-due', 'Money'],
  ['reports', 'Reports'],
  ['charity-list', 'Charities'],
  ['discount-list', 'Discounts'],
  ['user-list', 'Users'],
  ['audit', 'History'],
  ['admin-jobs', 'Jobs'],
  ['settings-emails', 'Settings'],
  ['developer', 'Developer'],
];

export function Layout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [fullWidth, setFullWidth] = useLocalStorage({ key: 'tripdesk.fullWidth', defaultValue: false });
  const nav: Array<[RouteName, string]> = isStaff(user)
    ? STAFF_NAV
    : isCharityPartner(user)
      ? [
          ['charity-portal', 'Fundraisers'],
          ['developer', 'Developer'],
        ]
      : STAFF_NAV.filter(([name]) => name === 'developer');

  const signOut = async () => {
    try {
      await api('/logout', { method: 'POST' });
      pushFlash('You have been signed out.');
    } finally {
      window.location.assign(path('login'));
    }
  };

  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header className={classes.header}>
        <Container fluid={fullWidth} size="xl" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap" className={classes.start}>
              <Anchor component={NavLink} to="/" className={classes.brand} underline="never">
                Tripdesk
              </Anchor>
              <nav aria-label="Main" className={classes.nav}>
                <Group gap={4} wrap="nowrap">
                  {nav.map(([name, label]) => (
                    // Settings has several screens: its link is marked on any of them
                    <NavLink
                      key={name}
                      to={path(name as 'booking-list')}
                      className={({ isActive }) =>
                        isActive || (name === 'settings-emails' && pathname.startsWith('/settings/'))
                          ? `${classes.link} active`
                          : classes.link
                      }
                    >
                      {label}
                    </NavLink>
                  ))}
                </Group>
              </nav>
            </Group>
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Button
                className="expand"
                variant="subtle"
                size="xs"
                onClick={() => setFullWidth((v) => !v)}
                aria-pressed={fullWidth}
                title={fullWidth ? 'Use a fixed-width layout' : 'Use the full width of the window'}
              >
                {fullWidth ? 'Fixed width' : 'Full width'}
              </Button>
              {user && (
                <Group gap="xs" wrap="nowrap">
                  <div className={classes.user} title={user.email}>
                    <Text size="sm" fw={500}>
                      {user.first_name} {user.last_name}
                    </Text>
                    <Text size="xs" className={classes.role}>
                      {user.role.display_name}
                    </Text>
                  </div>
                  <Button variant="white" color="blue.9" size="xs" onClick={signOut}>
                    Sign out
                  </Button>
                </Group>
              )}
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container fluid={fullWidth} size="xl" className="main-container" data-full-width={fullWidth}>
          <Box component="main" id="main">
            <FlashMessages />
            <Outlet />
          </Box>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
