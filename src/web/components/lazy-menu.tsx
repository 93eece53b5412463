import type { Menu, MenuProps } from '@mantine/core';
import {
  cloneElement,
  lazy,
  Suspense,
  useId,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

const MenuDropdown = lazy(() => import('./menu-dropdown.tsx').then((m) => ({ default: m.MenuDropdown })));

type Props = {
  /** the button that opens the menu */
  target: ReactElement<{ onClick?: (event: MouseEvent) => void; 'aria-haspopup'?: string; 'aria-expanded'?: boolean }>;
  menuProps?: MenuProps;
  /** the items, drawn with Mantine's Menu (`(M) => <M.Item …>`) */
  children: (M: typeof Menu) => ReactNode;
};

/**
 * A Mantine menu whose code (the menu, its popover and floating-ui) loads on the first click of
 * its button, then opens (a list screen's first visit does not carry its row menus).
 */
export function LazyMenu({ target, menuProps, children }: Props) {
  const [wanted, setWanted] = useState(false);
  // the button is drawn anew when the menu arrives: the menu gives focus back to it by this mark
  const mark = useId();
  const marked = cloneElement(target, { 'data-lazy-menu': mark } as never);
  const button = cloneElement(marked, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onClick: () => setWanted(true),
  });
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <MenuDropdown
        target={marked}
        menuProps={{
          ...menuProps,
          returnFocus: false,
          onClose: () => {
            menuProps?.onClose?.();
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-lazy-menu="${mark}"]`)?.focus());
          },
        }}
      >
        {children}
      </MenuDropdown>
    </Suspense>
  );
}
