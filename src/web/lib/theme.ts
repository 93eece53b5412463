import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** The one look of Tripdesk: the back office and the traveller's side share it. */
// shade 8 keeps white text on filled buttons above WCAG AA contrast (shade 6 is 3.5:1)
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
});

// dimmed text on white must stay readable: gray.7 instead of gray.6 (AA contrast)
export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  // error text in red.9: red.8 is just under AA contrast on white
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
