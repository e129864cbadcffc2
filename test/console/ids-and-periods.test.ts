import { describe, expect, it } from "vitest";
import { isIdOf } from "../../web/src/lib/ids.js";
import { isPeriodLabel } from "../../web/src/lib/periods.js";

// What a console address may carry: a period as the API names one, an id of the kind the page shows.

describe("isPeriodLabel", () => {
  it("takes a quarter, a month or a year as the API names them", () => {
    for (const period of ["2026-Q1", "2026-Q4", "2026-01", "2026-12", "2026", "1999"]) {
      expect(isPeriodLabel(period), period).toBe(true);
    }
  });

  it("refuses anything else (what the statement page showed as ← NaN / NaN →)", () => {
    for (const text of ["garbage", "", "2026-Q0", "2026-Q5", "2026-00", "2026-13", "2026-1", "26", "0999", "2026-q1"]) {
      expect(isPeriodLabel(text), text).toBe(false);
    }
  });
});

describe("isIdOf", () => {
  it("takes an id of the kind its prefix names", () => {
    expect(isIdOf("deal", "deal_01JB8Z3K4M5N6P7Q8R9S0T1V2W")).toBe(true);
    expect(isIdOf("usr", "usr_123")).toBe(true);
  });

  it("refuses another kind's id, a bare prefix, or other characters", () => {
    for (const text of ["usr_01JB", "deal_", "deal", "garbage", "deal_01/x", "deal_01 x", `deal_${"x".repeat(101)}`]) {
      expect(isIdOf("deal", text), text).toBe(false);
    }
  });
});
