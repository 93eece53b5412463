import type { ReactNode } from 'react';

/** An alert's title in the text's own colour: the light alerts' coloured titles are too pale to read on a phone. */
export const Heading = ({ children }: { children: ReactNode }) => (
  <span style={{ color: 'var(--mantine-color-text)' }}>{children}</span>
);
