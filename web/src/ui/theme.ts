import { type CSSVariablesResolver, createTheme } from "@mantine/core";

/**
 * System fonts (nothing fetched), one accent colour, comfortable at 360 px. Shade 7 of indigo is the
 * first with white text at ≥ 4.5:1 (WCAG AA; shade 6 is 4.3:1), so buttons, links and active nav use it.
 */
export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 7, dark: 8 },
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  defaultRadius: "md",
});

/**
 * Mantine's "dimmed" text is gray 6 (3.3:1 on white): gray 7 keeps it quieter and still AA. Links are
 * indigo 8, so they stay above 4.5:1 on the grey of a striped or hovered table row too.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { "--mantine-color-dimmed": t.colors.gray[7]!, "--mantine-color-anchor": t.colors.indigo[8]! },
  dark: {},
});
