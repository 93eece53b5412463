import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A component whose code loads the first time it is drawn (dialogs, the date picker
 * and the rich-text editor are not part of a screen's first visit). Draw it only when it is
 * wanted (`{open && <X … />}`); until its chunk arrives nothing shows, then it does.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, its props kept
export function lazyComponent<P extends Record<string, any>>(load: () => Promise<ComponentType<P>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function LazyComponent(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

/**
 * A dialog (opened by a prop) whose code loads the first time it opens, then stays mounted so it
 * closes with its transition and keeps its state between openings as before.
 *
 *   const CreateTripDialog = lazyDialog(() => import('./create-trip-dialog.tsx').then((m) => m.CreateTripDialog), (p) => p.opened);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dialog, its props kept
export function lazyDialog<P extends Record<string, any>>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
) {
  const Lazy = lazyComponent(load);
  return function LazyDialog(props: P) {
    const [wanted, setWanted] = useState(false);
    if (isOpen(props) && !wanted) setWanted(true);
    return wanted ? <Lazy {...props} /> : null;
  };
}
