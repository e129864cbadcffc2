import { describe, expect, it } from "vitest";
import { gaugeScale, type PlacedLabel, placeLabels, textWidth } from "../../web/src/pages/home/gauge-layout.js";

// The attainment gauge's tier labels (pages/home/AttainmentGauge.tsx): the issue saw them overlap at
// high attainment. Every label stays inside the gauge and none touches another of its row.

const WIDTH = 320;
const FONT = 10;
const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

function layout(ratio: number, tiers: [from: number, rate: number][]): PlacedLabel[] {
  const starts = tiers.map(([from]) => from).filter((from) => from > 0);
  const scale = gaugeScale(ratio, starts);
  const x = (r: number) => (Math.max(0, Math.min(r, scale)) / scale) * WIDTH;
  return placeLabels(
    tiers.map(([from, rate]) => ({ x: x(from), text: `${pct(from)} · ${pct(rate)}` })),
    WIDTH,
    FONT,
  );
}

function expectApart(labels: PlacedLabel[]) {
  for (const label of labels) {
    expect(label.left).toBeGreaterThanOrEqual(0);
    expect(label.left + label.width).toBeLessThanOrEqual(WIDTH);
    expect(label.width).toBe(textWidth(label.text, FONT));
  }
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      if (a.row !== b.row) continue;
      const apart = a.left + a.width < b.left || b.left + b.width < a.left;
      expect(apart, `${a.text} and ${b.text} in row ${a.row}`).toBe(true);
    }
  }
}

const SEED: [number, number][] = [
  [0, 0.08],
  [1, 0.12],
  [1.5, 0.15],
];

describe("the gauge's tier labels never overlap", () => {
  it.each([0.4, 1, 1.5, 1.8, 2, 2.5, 3, 5, 10, 100])("three tiers at %s of quota", (ratio) => {
    expectApart(layout(ratio, SEED));
  });

  it("at 180 % and beyond the seed's tiers keep one row: the scale stops growing", () => {
    for (const ratio of [1.8, 3, 10, 100])
      expect(
        layout(ratio, SEED).every((l) => l.row === 0),
        String(ratio),
      ).toBe(true);
    expect(gaugeScale(100, [1, 1.5])).toBe(gaugeScale(10, [1, 1.5]));
  });

  it("tiers close together go to a second row rather than overlap", () => {
    const close = layout(1.2, [
      [0, 0.05],
      [1, 0.1],
      [1.05, 0.125],
      [1.1, 0.15],
    ]);
    expectApart(close);
    expect(Math.max(...close.map((l) => l.row))).toBeGreaterThan(0);
  });

  it("a label at either end stays inside the gauge", () => {
    const [start, end] = placeLabels(
      [
        { x: 0, text: "0% · 10%" },
        { x: WIDTH, text: "200% · 20%" },
      ],
      WIDTH,
      FONT,
    );
    expect(start!.left).toBe(0);
    expect(end!.left + end!.width).toBe(WIDTH);
  });
});
