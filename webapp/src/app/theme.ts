import { createTheme, type MantineColorsTuple } from '@mantine/core';

// Shades around the brand orange #ff6d5a (index 5, the primary shade).
const flowmill: MantineColorsTuple = [
  '#fff1ef',
  '#ffe1dc',
  '#ffc2b8',
  '#ffa192',
  '#ff8572',
  '#ff6d5a',
  '#f2553f',
  '#d8432e',
  '#c13723',
  '#a82b18',
];

const systemFonts =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'flowmill',
  primaryShade: 5,
  colors: { flowmill },
  fontFamily: systemFonts,
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontFamily: systemFonts, fontWeight: '600' },
  defaultRadius: 'md',
  cursorType: 'pointer',
});
