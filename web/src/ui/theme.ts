import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  Modal,
  parseThemeColor,
  type VariantColorsResolver,
} from "@mantine/core";

/**
 * The "light" variant (badges, light buttons) writes shade 6 on a tint of it, 2.5–3.6:1 for most colours;
 * shade 9 on shade 0 is above 4.5:1 for every colour (teal 9 on teal 1 is 4.3:1, on teal 0 4.8:1). Its
 * hover (shade 2 under indigo 9: 4.1:1, axe's color-contrast while the pointer rests on a button) is shade
 * 1: indigo 5.3:1, red 4.5:1 (teal stays short there: no light teal buttons).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== "light") return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  return {
    ...colors,
    background: `var(--mantine-color-${parsed.color}-0)`,
    hover: `var(--mantine-color-${parsed.color}-1)`,
    color: `var(--mantine-color-${parsed.color}-9)`,
  };
};

/** System fonts (nothing fetched), one accent colour, comfortable at 360 px. */
export const theme = createTheme({
  primaryColor: "indigo",
  // Shade 6 under white text is 4.0:1 (axe: serious); 8 is 5.3:1, for buttons, links and active marks.
  primaryShade: 8,
  // A person who asked their system for less motion gets none (dialogs appear at once). The e2e suite asks
  // too, so axe never measures a dialog's colours halfway through its fade-in.
  respectReducedMotion: true,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  defaultRadius: "md",
  variantColorResolver,
  components: {
    // A modal's close button is an icon only: without a name it is axe's button-name (critical).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
  },
});

/**
 * Mantine's "dimmed" text is gray 6 (3.3:1 on white): gray 7 keeps it quieter and still AA. Links are
 * indigo 8, so they stay above 4.5:1 on the grey of a striped or hovered table row too. A field's error
 * (its message and its red label) is red 6 by default, 3.3:1 on white: red 9 is 5.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": t.colors.gray[7]!,
    "--mantine-color-anchor": t.colors.indigo[8]!,
    "--mantine-color-error": t.colors.red[9]!,
  },
  dark: {},
});
