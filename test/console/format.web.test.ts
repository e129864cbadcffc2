import { describe, expect, it } from "vitest";
import { amount, hasMoreThanMinorUnits, money, moneyToCent, sharePercent } from "../../web/src/lib/format.js";
import { whyItPays } from "../../web/src/lib/spiff-reasons.js";

// The console's formatting in en-US (Intl's default locale here is the process's; these name it).
const inUs = <T>(run: () => T): T => {
  const original = Intl.NumberFormat;
  const originalDate = Intl.DateTimeFormat;
  // Whatever locale the page asks for (the browser's: undefined), en-US.
  Intl.NumberFormat = class extends original {
    constructor(_locale?: unknown, options?: Intl.NumberFormatOptions) {
      super("en-US", options);
    }
  } as typeof Intl.NumberFormat;
  Intl.DateTimeFormat = class extends originalDate {
    constructor(_locale?: unknown, options?: Intl.DateTimeFormatOptions) {
      super("en-US", options);
    }
  } as typeof Intl.DateTimeFormat;
  try {
    return run();
  } finally {
    Intl.NumberFormat = original;
    Intl.DateTimeFormat = originalDate;
  }
};

describe("money to the cent, the exact value for a tooltip", () => {
  it("shows the cents and keeps the exact value when it has more places (what the issue saw)", () => {
    inUs(() => {
      expect(moneyToCent("781937.664")).toEqual({ text: "$781,937.66", exact: "$781,937.664" });
      expect(moneyToCent("8293.91805")).toEqual({ text: "$8,293.92", exact: "$8,293.91805" });
      expect(moneyToCent("-0.005", "EUR")).toEqual({ text: "-€0.01", exact: "-€0.005" });
    });
  });

  it("has no tooltip when the cents say it all", () => {
    inUs(() => {
      expect(moneyToCent("1200")).toEqual({ text: "$1,200.00" });
      expect(moneyToCent(1234.5)).toEqual({ text: "$1,234.50" });
      expect(moneyToCent("12.3400")).toEqual({ text: "$12.34" });
    });
  });

  it("money shows the currency's minor-unit decimals (API.md §15): none for JPY, 3 for KWD, 2 for USD", () => {
    const digits = (text: string) => text.replace(/[^\d.,]/g, "");
    expect(digits(money(617, "JPY"))).toBe("617");
    expect(digits(money(1234.5, "USD"))).toBe("1,234.50");
    expect(digits(money(123.457, "KWD"))).toBe("123.457");
    expect(digits(money(1.25, "BHD"))).toBe("1.250");
  });

  it("hasMoreThanMinorUnits reads the decimal text, trailing zeros aside, against the currency", () => {
    expect(hasMoreThanMinorUnits("1.001")).toBe(true);
    expect(hasMoreThanMinorUnits("1.010")).toBe(false);
    expect(hasMoreThanMinorUnits("100")).toBe(false);
    expect(hasMoreThanMinorUnits(0.125)).toBe(true);
    expect(hasMoreThanMinorUnits(1e-7)).toBe(true);
    expect(hasMoreThanMinorUnits("617.25", "JPY")).toBe(true);
    expect(hasMoreThanMinorUnits("123.457", "KWD")).toBe(false);
    expect(hasMoreThanMinorUnits("123.4567", "KWD")).toBe(true);
  });
});

describe("one percent style", () => {
  it("a split's share (60 = 60 %) as every other percent", () => {
    inUs(() => {
      expect(sharePercent(60)).toBe("60%");
      expect(sharePercent("33.3333")).toBe("33.33%");
      expect(sharePercent(100)).toBe("100%");
    });
  });
});

describe("a SPIFF's why it pays, as a sentence", () => {
  it("says each condition the deal met in words, with money and dates as the console shows them", () => {
    const sentence = inUs(() =>
      whyItPays(
        [
          "SPIFF active",
          "currency USD",
          "close_date 2026-08-14 within 2026-07-01 to 2026-09-30",
          "arr_amount 48,000.00 ≥ 20,000.00",
          "deal_type new_business is listed",
          "user usr_1 is listed",
        ],
        "USD",
        (id) => (id === "usr_1" ? "Rita Rep" : id),
      ),
    );
    expect(sentence).toBe(
      "It pays because it is a USD deal, the deal closed on Aug 14, 2026, within the SPIFF's window " +
        "(Jul 1, 2026 – Sep 30, 2026), its ARR of $48,000.00 is at least $20,000.00, it is a new-business deal, " +
        "a type the SPIFF pays on and Rita Rep is one of the people the SPIFF pays.",
    );
    expect(sentence).not.toMatch(/close_date|arr_amount|deal_type|new_business/);
  });

  it("a SPIFF with no condition but its window, and a condition it does not know", () => {
    expect(whyItPays(["SPIFF active"], "USD")).toBe("It pays on every deal that closes in its window.");
    expect(whyItPays(["something new"], "USD")).toBe("It pays because something new.");
  });
});

describe("money without a symbol (a reporting change's impact: its lines name no currency)", () => {
  it.each([
    [1234.5, false, "1,234.50"],
    [0, true, "0.00"],
    [490, true, "+490.00"],
    [-3.5, true, "−3.50"],
    [-3.5, false, "−3.50"],
    [12, false, "12.00"],
  ])("amount(%d, %s) = %j", (value, signed, text) => {
    expect(inUs(() => amount(value, signed))).toBe(text);
  });
});
