import { useRef, useState } from 'react';

/**
 * One dialog of a panel at a time: `open(what)` remembers the button that opened it, and `close()`
 * gives the focus back to that button (when it is still on the page), as keyboard users expect.
 */
export function useDialog<D>(onOpen?: () => void) {
  const [dialog, setDialog] = useState<D | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = (next: D) => {
    onOpen?.();
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setDialog(next);
  };
  const close = () => {
    setDialog(null);
    requestAnimationFrame(() => opener.current?.isConnected && opener.current.focus());
  };
  return { dialog, open, close };
}
