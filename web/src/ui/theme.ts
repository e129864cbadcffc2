import { createTheme } from "@mantine/core";

/** System fonts (nothing fetched), one accent colour, comfortable at 360 px. */
export const theme = createTheme({
  primaryColor: "indigo",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  defaultRadius: "md",
});
