import { Alert, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { FLASH_EVENT, takeFlash } from '../lib/flash.ts';

/** Shows the flash queue as info alerts on the screen that reads it, then empties it. */
export function FlashMessages() {
  const location = useLocation();
  const [messages, setMessages] = useState<string[]>([]);
  // StrictMode runs effects twice; the queue must be taken once per screen
  const taken = useRef<string | null>(null);
  useEffect(() => {
    if (taken.current === location.key) return;
    taken.current = location.key;
    // the queue lives in sessionStorage, an external store read once per screen
    setMessages(takeFlash());
  }, [location.key]);
  useEffect(() => {
    const onShow = () => setMessages(takeFlash());
    window.addEventListener(FLASH_EVENT, onShow);
    return () => window.removeEventListener(FLASH_EVENT, onShow);
  }, []);
  if (!messages.length) return null;
  return (
    <Stack gap="xs" mb="md" data-testid="flash-messages">
      {messages.map((message, i) => (
        <Alert
          key={i}
          color="blue"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setMessages((all) => all.filter((_, j) => j !== i))}
          className="alert alert-info"
        >
          {message}
        </Alert>
      ))}
    </Stack>
  );
}
