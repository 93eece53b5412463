import { Button } from '@mantine/core';
import { useState } from 'react';
import type { BookingDetail } from '../../../contract/bookings.ts';
import { lazyDialog } from '../../components/lazy.tsx';

// the form and its rules (the shared contract) load the first time it opens
const TravellerFormModal = lazyDialog(
  () => import('./traveller-form-modal.tsx').then((m) => m.TravellerFormModal),
  (p) => p.opened,
);

/** "Traveller form" on the booking page. */
export function TravellerFormDialog({ b }: { b: BookingDetail }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Traveller form
      </Button>
      <TravellerFormModal b={b} opened={open} onClose={() => setOpen(false)} />
    </>
  );
}
