// Where the attainment gauge puts its tier labels: each over its marker, moved inside the bar's width
// at the ends, and lifted to a row above when it would touch the label before it (tiers close together,
// or squeezed to the left by a high attainment). Pure: test/console/gauge-layout.test.ts holds it.

/** Roughly how wide a character of the gauge's labels is, in ems (generous: Chromium on Linux draws DejaVu Sans). */
function em(char: string): number {
  if (/\d/.test(char)) return 0.64;
  if (char === "%") return 0.96;
  if (/[ .,·]/.test(char)) return 0.34;
  return 0.72;
}

/** The width a text takes at this font size, rounded up (an upper bound: labels never touch). */
export function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += em(char);
  return Math.ceil(width * fontSize);
}

export interface PlacedLabel {
  text: string;
  /** The marker's position. */
  x: number;
  /** The label's left edge (textAnchor "start"). */
  left: number;
  width: number;
  /** 0 right above the bar, 1 above that, … */
  row: number;
}

/** Space kept between two labels of a row. */
const GAP = 6;

/** The labels of markers at `x` (in any order), within [0, width], none overlapping another of its row. */
export function placeLabels(markers: { x: number; text: string }[], width: number, fontSize: number): PlacedLabel[] {
  const rowEnds: number[] = [];
  return [...markers]
    .sort((a, b) => a.x - b.x)
    .map(({ x, text }) => {
      const w = Math.min(textWidth(text, fontSize), width);
      const left = Math.max(0, Math.min(x - w / 2, width - w));
      let row = rowEnds.findIndex((end) => left >= end + GAP);
      if (row === -1) row = rowEnds.length;
      rowEnds[row] = left + w;
      return { text, x, left, width: w, row };
    });
}

/**
 * How far (as a ratio of quota) the gauge's scale runs: a quarter past the top band's start, or past the
 * attainment when higher — but at most 1.2 times that, so a very high attainment does not squeeze the
 * bands to the left edge (the bar then fills the gauge; the caption says how far it went).
 */
export function gaugeScale(ratio: number, starts: number[]): number {
  const reach = Math.max(1.25, ...starts.map((s) => s * 1.25));
  return Math.max(reach, Math.min(ratio * 1.05, reach * 1.2));
}
