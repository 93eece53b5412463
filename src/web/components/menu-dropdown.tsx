import { Menu, type MenuProps } from '@mantine/core';
import type { ReactElement, ReactNode } from 'react';

/** The menu of LazyMenu, in a chunk of its own: it loads on the first click and opens at once. */
export function MenuDropdown({
  target,
  menuProps,
  children,
}: {
  target: ReactElement;
  menuProps?: MenuProps;
  children: (M: typeof Menu) => ReactNode;
}) {
  return (
    <Menu defaultOpened {...menuProps}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>{children(Menu)}</Menu.Dropdown>
    </Menu>
  );
}
