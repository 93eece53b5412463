import { lazyDialog } from './lazy.tsx';

/**
 * A yes/no question before something that cannot be undone; the spec gives each one its words.
 * The dialog's code loads the first time it opens.
 */
export const ConfirmDialog = lazyDialog(
  () => import('./confirm-modal.tsx').then((m) => m.ConfirmModal),
  (p) => p.opened,
);
