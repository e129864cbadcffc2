import { createTheme } from "@mantine/core";

/** System fonts (nothing fetched), one accent colour, comfortable at 360 px. */
export const theme = createTheme({
  primaryColor: "indigo",
  // Shade 6 under white text is 4.0:1 (axe: serious); 8 is 5.3:1, for buttons, links and active marks.
  primaryShade: 8,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  defaultRadius: "md",
});
