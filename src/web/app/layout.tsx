import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { path, type RouteName } from '../../contract/paths.ts';
import { api } from '../lib/api.ts';
import { pushFlash } from '../lib/flash.ts';
import { isCharityPartner, isStaff, useCan, useCurrentUser } from '../lib/session.tsx';
import { mayOpen, SETTINGS_PAGES, STAFF_NAV } from '../lib/nav.ts';
import type { Level, Permission } from '../../contract/permissions.ts';
import { FlashMessages } from '../components/flash-messages.tsx';
import classes from './layout.module.css';

/** The member's menu: the screens their team may read, Settings at the first settings screen they may, and Developer. */
function staffNav(may: (permission: Permission, level: Level) => boolean): Array<[RouteName, string]> {
  const settings = SETTINGS_PAGES.find((p) => mayOpen(p.name, may));
  return [
    ...STAFF_NAV.filter((p) => mayOpen(p.name, may)).map((p): [RouteName, string] => [p.name, p.label]),
    ...(settings ? [[settings.name, 'Settings'] as [RouteName, string]] : []),
    ['developer', 'Developer'],
  ];
}

export function Layout() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [fullWidth, setFullWidth] = useLocalStorage({ key: 'tripdesk.fullWidth', defaultValue: false });
  const may = useCan();
  const nav: Array<[RouteName, string]> = isStaff(user)
    ? staffNav(may)
    : isCharityPartner(user)
      ? [
          ['charity-portal', 'Fundraisers'],
          ['developer', 'Developer'],
        ]
      : [['developer', 'Developer']];

  // the phone's menu closes once a section is chosen (by link, or back and forward)
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  const links = nav.map(([name, label]) => (
    // Settings has several screens: its link is marked on any of them
    <NavLink
      key={name}
      to={path(name as 'booking-list')}
      className={({ isActive }) =>
        isActive || (name.startsWith('settings-') && pathname.startsWith('/settings/'))
          ? `${classes.link} active`
          : classes.link
      }
    >
      {label}
    </NavLink>
  ));

  // "Administrator · Finance": the role, and the team when the member is in one
  const role = user ? `${user.role.display_name}${user.team ? ` · ${user.team.name}` : ''}` : '';
  const who = user ? `${user.first_name} ${user.last_name} (${role})` : '';

  const signOut = async () => {
    try {
      await api('/logout', { method: 'POST' });
      pushFlash('You have been signed out.');
    } finally {
      window.location.assign(path('login'));
    }
  };

  return (
    // a fixed header and the page under it (no AppShell: the layout comes with every page's first visit)
    <>
      <header className={`${classes.header} app-header`}>
        <Container fluid={fullWidth} size="xl" h="100%" data-full-width={fullWidth}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap" className={classes.start}>
              <Anchor component={NavLink} to="/" className={classes.brand} underline="never">
                Tripdesk
              </Anchor>
              <nav aria-label="Main" className={classes.nav}>
                <Group gap={4} wrap="nowrap">
                  {links}
                </Group>
              </nav>
              {/* on a phone: the sections behind a Menu button, a list under the header */}
              <details
                ref={menu}
                className={classes.menu}
                onKeyDown={(e) => {
                  if (e.key !== 'Escape' || !menu.current?.open) return;
                  menu.current.open = false;
                  menu.current.querySelector('summary')?.focus();
                }}
              >
                <summary className={classes.menuButton}>Menu</summary>
                <div className={classes.menuPanel}>
                  {user && <p className={classes.signedIn}>Signed in as {who}</p>}
                  <nav aria-label="Main">{links}</nav>
                </div>
              </details>
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
                      {role}
                    </Text>
                  </div>
                  <Button variant="white" color="blue.9" size="xs" onClick={signOut} title={`Signed in as ${who}`}>
                    Sign out
                  </Button>
                </Group>
              )}
            </Group>
          </Group>
        </Container>
      </header>
      <div className={`${classes.main} app-main`}>
        <Container fluid={fullWidth} size="xl" className="main-container" data-full-width={fullWidth}>
          <Box component="main" id="main">
            <FlashMessages />
            <Outlet />
          </Box>
        </Container>
      </div>
    </>
  );
}
