import { describe, expect, it } from "vitest";
import { currentPeriodLabel, datesOf, openingPeriod } from "../../web/src/lib/periods.js";

// The approval queue's period filter becomes close_date_from/close_date_to through datesOf.
describe("datesOf", () => {
  it.each([
    ["2026-Q1", "2026-01-01", "2026-03-31"],
    ["2026-Q3", "2026-07-01", "2026-09-30"],
    ["2026-Q4", "2026-10-01", "2026-12-31"],
    ["2028-02", "2028-02-01", "2028-02-29"],
    ["2026-02", "2026-02-01", "2026-02-28"],
    ["2026-11", "2026-11-01", "2026-11-30"],
    ["2026", "2026-01-01", "2026-12-31"],
  ])("%s → %s … %s", (period, from, to) => {
    expect(datesOf(period)).toEqual({ from, to });
  });
});

// The menu's Statement link opens /statements, which redirects to the period openingPeriod picks.
describe("openingPeriod", () => {
  const listed = (period: string, current: boolean, lines: number) => ({ period, current, lines });

  it("the plan's current period, even without lines", () => {
    expect(openingPeriod([listed("2026-11", false, 3), listed("2026", true, 0), listed("2025", false, 9)])).toBe(
      "2026",
    );
  });

  it("without a plan in force today: the newest period with lines", () => {
    expect(openingPeriod([listed("2026-Q3", false, 2), listed("2026-Q2", false, 5)])).toBe("2026-Q3");
  });

  it("no plan and no lines: this calendar quarter", () => {
    expect(openingPeriod([])).toBe(currentPeriodLabel("quarter"));
  });
});
