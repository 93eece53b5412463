import { Button } from '@mantine/core';
import { useState } from 'react';
import { lazyDialog } from '../../components/lazy.tsx';

const PassportPhotoModal = lazyDialog(
  () => import('./passport-photo-modal.tsx').then((m) => m.PassportPhotoModal),
  (p) => p.opened,
);

/**
 * A passport photo page a traveller sent from their own pages: "To check" on the board until
 * someone has looked at it; the button opens it (its dialog loads the first time).
 */
export function PassportPhotoCheck(props: { tripId: number; bookingId: number; traveller: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="compact-xs"
        variant="outline"
        color="blue"
        onClick={() => setOpen(true)}
        aria-label={`Passport photo of ${props.traveller} to check`}
      >
        To check
      </Button>
      <PassportPhotoModal {...props} opened={open} onClose={() => setOpen(false)} />
    </>
  );
}
