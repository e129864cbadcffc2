import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("CTS_PLAN_IMPACT_INLINE_LINES", () => {
  it("defaults to 20000 lines", () => {
    expect(loadConfig({}).planImpactInlineLines).toBe(20_000);
  });

  it.each([
    ["1", 1],
    ["200", 200],
    ["1000000", 1_000_000],
  ])("takes a whole number: %s", (value, lines) => {
    expect(loadConfig({ CTS_PLAN_IMPACT_INLINE_LINES: value }).planImpactInlineLines).toBe(lines);
  });

  it.each(["0", "-1", "1.5", "20k", "1000001", "9999999999"])(
    "CTS_PLAN_IMPACT_INLINE_LINES=%s stops the start with one clear message",
    (value) => {
      expect(problemsOf({ CTS_PLAN_IMPACT_INLINE_LINES: value })).toEqual([
        "CTS_PLAN_IMPACT_INLINE_LINES must be a whole number of lines (1-1000000)",
      ]);
    },
  );
});
