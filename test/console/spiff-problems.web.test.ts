import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minorUnitProblems } from "../../src/http/commission-fields.js";
import { CreateSpiffBody } from "../../src/spiffs/index.js";
import {
  type SpiffValues,
  spiffBody,
  spiffErrorsInWords,
  spiffProblems,
} from "../../web/src/pages/spiffs/spiff-problems.js";

// The SPIFF form's errors in words (issue #30): what it finds before sending, checked against the API's
// own schema, and the API's 422 messages said again in words.

const valid: SpiffValues = {
  name: "Q4 sprint",
  description: "",
  currency: "USD",
  starts_on: "2026-10-01",
  ends_on: "2026-12-31",
  payout: "flat",
  amount: 250.5,
  rate: "",
  min_arr_amount: "",
  deal_types: [],
  user_ids: [],
  active: true,
};

describe("spiffProblems", () => {
  it.each<[Partial<SpiffValues>, Record<string, string>]>([
    [{}, {}],
    [{ name: "  " }, { name: "Give the SPIFF a name." }],
    [{ name: "x".repeat(201) }, { name: "Keep the name to 200 characters." }],
    [{ currency: "US" }, { currency: "Give a three-letter currency code, such as USD." }],
    [{ starts_on: "" }, { starts_on: "Pick the first day deals count." }],
    [{ ends_on: "" }, { ends_on: "Pick the last day deals count." }],
    [{ ends_on: "2026-09-30" }, { ends_on: "Pick an end date on or after the start (Oct 1, 2026)." }],
    [{ ends_on: "2026-10-01" }, {}],
    [{ amount: "" }, { "payout.amount": "Give the amount paid per deal." }],
    [{ amount: -1 }, { "payout.amount": "Give an amount of zero or more." }],
    [{ amount: 1.234 }, { "payout.amount": "Give the amount with at most 2 decimals (USD)." }],
    [{ payout: "rate" }, { "payout.rate": "Give the rate: 0.02 pays 2 % of the credit." }],
    [{ payout: "rate", rate: 11 }, { "payout.rate": "Give a rate from 0 to 10 (1,000 %)." }],
    [{ payout: "rate", rate: 0.1234567 }, { "payout.rate": "Give the rate with at most 6 decimals." }],
    [{ payout: "rate", rate: 0.02 }, {}],
    [{ min_arr_amount: -5 }, { "criteria.min_arr_amount": "Give a minimum ARR of zero or more, or leave it empty." }],
  ])("%o → %o", (change, problems) => {
    expect(spiffProblems({ ...valid, ...change })).toEqual(problems);
  });

  it("finds a problem exactly when the API refuses the body: its schema, and the window rule spiffs/ adds", () => {
    const values = fc.record({
      name: fc.oneof(fc.constant(""), fc.constant(" "), fc.string({ maxLength: 210 })),
      description: fc.string({ maxLength: 10 }),
      currency: fc.constantFrom("USD", "eur", "US", "", "1AB", "GBP", "JPY", "KWD"),
      starts_on: fc.constantFrom("2026-10-01", "2026-10-15", ""),
      ends_on: fc.constantFrom("2026-10-01", "2026-09-30", "2026-12-31", ""),
      payout: fc.constantFrom<"flat" | "rate">("flat", "rate"),
      amount: fc.oneof(
        fc.constant(""),
        fc.integer({ min: -100, max: 100_000 }).map((n) => n / 100),
        fc.constantFrom(1.234, 1.5, 1.2345),
      ),
      rate: fc.oneof(
        fc.constant(""),
        fc.double({ min: -1, max: 12, noNaN: true }),
        fc.constantFrom(0.1234567, 5e-324, 1.5e-7, 2e-6),
      ),
      min_arr_amount: fc.oneof(fc.constant(""), fc.integer({ min: -100, max: 100 })),
      // What the form's pickers offer: deal types and people that exist.
      deal_types: fc.constantFrom<string[]>([], ["expansion"], ["new_business", "renewal"]),
      user_ids: fc.constantFrom<string[]>([], ["usr_1"]),
      active: fc.boolean(),
    });
    fc.assert(
      fc.property(values, (v) => {
        const found = spiffProblems(v);
        const parsed = CreateSpiffBody.safeParse(spiffBody(v));
        // An unknown but well-formed code (the generator has none) is the API's alone to refuse.
        // Then the SPIFF currency's decimals (API.md §15), as the service checks them.
        const accepted =
          parsed.success &&
          parsed.data.ends_on >= parsed.data.starts_on &&
          minorUnitProblems(parsed.data.currency, {
            min: parsed.data.criteria.min_arr_amount,
            amount: parsed.data.payout.type === "flat" ? parsed.data.payout.amount : null,
          }).length === 0;
        expect(Object.keys(found).length === 0, JSON.stringify({ found, issues: parsed.error?.issues })).toBe(accepted);
      }),
      { numRuns: 500 },
    );
  });
});

describe("spiffErrorsInWords", () => {
  it("says the API's field strings in words; a parameter it does not know keeps its message", () => {
    expect(
      spiffErrorsInWords({
        name: "must be at least 1 characters",
        currency: "XYZ is not an active ISO 4217 currency code",
        ends_on: "must be on or after starts_on (2026-01-01)",
        "payout.amount": "must have at most 2 decimal places",
        "criteria.user_ids[3]": "must be an id",
        other: "must be something",
      }),
    ).toEqual({
      name: "Give the SPIFF a name of at most 200 characters.",
      currency: "XYZ is not a currency code in use: give one such as USD or EUR.",
      ends_on: "Pick an end date on or after the start.",
      "payout.amount": "Give the amount paid per deal: zero or more, with at most the currency's decimals.",
      "criteria.user_ids[3]": "Pick at most 1,000 people, or none for everyone credited.",
      other: "must be something",
    });
  });
});
