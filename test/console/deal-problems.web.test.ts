import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreateDealBody, PreviewBody, UpdateDealBody } from "../../src/deals/index.js";
import { contractProblems, writableOf } from "../../src/deals/testing.js";
import { ApiError } from "../../web/src/api/errors.js";
import type { DealDetail } from "../../web/src/data/deals/queries.js";
import {
  type DealValues,
  dealBody,
  dealErrorsInWords,
  dealErrorsOf,
  dealPatch,
  dealProblems,
  previewBody,
  splitSum,
  valuesOfDeal,
} from "../../web/src/pages/deals/deal-problems.js";

// The deal form (issue #30): what it finds before sending, in words, checked against the API's own
// schema of the body and the contract-date rule the create service adds; the bodies it sends; the
// API's 422s said in the same words.

const valid: DealValues = {
  opportunity_name: "Acme renewal",
  owner_id: "usr_1",
  arr_amount: 24000.5,
  currency: "USD",
  deal_type: "renewal",
  close_date: "2026-11-20",
  splits: [],
  contract_start: "",
  contract_end: "",
  external_id: "",
};

const split = (...shares: [string | null, number | string][]) =>
  shares.map(([user_id, percent]) => ({ user_id, percent }));

/** Whether the API takes the body: its schema, then the contract dates' rule (src/deals/create.ts). */
function apiAccepts(v: DealValues): { ok: boolean; issues?: unknown } {
  const parsed = CreateDealBody.safeParse(dealBody(v));
  if (!parsed.success) return { ok: false, issues: parsed.error.issues };
  const contract = contractProblems(writableOf(parsed.data));
  return { ok: contract.length === 0, issues: contract };
}

describe("dealProblems", () => {
  it.each<[Partial<DealValues>, Record<string, string>]>([
    [{}, {}],
    [{ opportunity_name: "  " }, { opportunity_name: "Give the deal a name, as your CRM calls the opportunity." }],
    [{ opportunity_name: "x".repeat(501) }, { opportunity_name: "Keep the name to 500 characters." }],
    [{ owner_id: null }, { owner_id: "Pick who owns the deal." }],
    [{ arr_amount: "" }, { arr_amount: "Give the deal's ARR." }],
    [{ arr_amount: -1 }, { arr_amount: "Give an ARR of zero or more." }],
    [{ arr_amount: 0 }, {}],
    [{ arr_amount: 10.005 }, { arr_amount: "Give the ARR with at most 2 decimals (USD)." }],
    [{ arr_amount: 1e12 }, { arr_amount: "Give an ARR below a trillion." }],
    [{ currency: "US" }, { currency: "Give a three-letter currency code, such as USD." }],
    [{ currency: "eur" }, {}],
    [{ close_date: "" }, { close_date: "Pick the day the deal closed." }],
    [{ close_date: "2026-02-30" }, { close_date: "Pick the day the deal closed." }],
    [{ splits: split(["usr_1", 60], ["usr_2", 40]) }, {}],
    [
      { splits: split(["usr_1", 60], ["usr_2", 30]) },
      { splits: "The shares add up to 90%; they must add up to exactly 100 %." },
    ],
    [
      { splits: split(["usr_1", 33.3333], ["usr_2", 33.3333], ["usr_3", 33.3333]) },
      { splits: "The shares add up to 99.9999%; they must add up to exactly 100 %." },
    ],
    [{ splits: split(["usr_1", 33.3333], ["usr_2", 33.3333], ["usr_3", 33.3334]) }, {}],
    [{ splits: split(["usr_1", 0.1], ["usr_2", 0.2], ["usr_3", 99.7]) }, {}],
    [
      { splits: split([null, 50], ["usr_2", ""]) },
      {
        "splits[0].user_id": "Pick who this share is for.",
        "splits[1].percent": "Give this person's share in percent.",
      },
    ],
    [
      { splits: split(["usr_2", 50], ["usr_2", 50]) },
      { "splits[1].user_id": "This person already has a share above." },
    ],
    [
      { splits: split(["usr_1", 0], ["usr_2", 100]) },
      { "splits[0].percent": "Give a share above 0 and at most 100 %." },
    ],
    [
      { splits: split(["usr_1", 50.00001], ["usr_2", 49.99999]) },
      {
        "splits[0].percent": "Give the share with at most 4 decimals.",
        "splits[1].percent": "Give the share with at most 4 decimals.",
      },
    ],
    [{ contract_start: "2026-12-01" }, { contract_end: "Give the contract's end too, or neither date." }],
    [{ contract_end: "2027-11-30" }, { contract_start: "Give the contract's start too, or neither date." }],
    [
      { contract_start: "2026-12-01", contract_end: "2026-12-01" },
      { contract_end: "Pick a contract end after its start (Dec 1, 2026)." },
    ],
    [{ contract_start: "2026-12-01", contract_end: "2027-11-30" }, {}],
    [{ external_id: "x".repeat(256) }, { external_id: "Keep the CRM id to 255 characters." }],
    [{ external_id: "  " }, {}],
  ])("%o → %o", (change, problems) => {
    expect(dealProblems({ ...valid, ...change })).toEqual(problems);
  });

  it("finds a problem exactly when the API refuses the body: its schema, and the contract dates' rule", () => {
    // Each field is mostly right, so a case with one thing wrong (the one a mistaken rule would miss) is common.
    const mostly = <T>(right: fc.Arbitrary<T>, wrong: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: right, weight: 5 }, { arbitrary: wrong, weight: 1 });
    const person = fc.constantFrom("usr_1", "usr_2", "usr_3");
    // Shares that sum to 100 by construction (ten-thousandths), else anything a person might type.
    const whole = fc
      .array(fc.integer({ min: 1, max: 400_000 }), { minLength: 1, maxLength: 3 })
      .filter((parts) => parts.reduce((a, b) => a + b, 0) < 1_000_000)
      .map((parts) => [...parts, 1_000_000 - parts.reduce((a, b) => a + b, 0)].map((n) => n / 10_000));
    const typed = fc.array(
      fc.oneof(
        fc.constant<number | string>(""),
        fc.integer({ min: -10, max: 110 }),
        fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 10_000),
        fc.constantFrom(33.3333, 33.3334, 0.00001, 1e-7, 50.5),
      ),
      { minLength: 1, maxLength: 4 },
    );
    // Summing to 100 once rounded to 4 places, with a fifth decimal the API refuses.
    const fifthDecimal = whole.map(([first, ...rest]) => [Number((first! + 0.00001).toFixed(5)), ...rest]);
    const withZero = whole.map((parts) => [...parts, 0]);
    const shares = mostly<(number | string)[]>(whole, fc.oneof(typed, fifthDecimal, withZero));
    const splits: fc.Arbitrary<DealValues["splits"]> = fc.oneof(
      fc.constant<DealValues["splits"]>([]),
      shares.chain((percents) =>
        fc
          .tuple(
            mostly<(string | null)[]>(
              fc.shuffledSubarray(["usr_1", "usr_2", "usr_3", "usr_4", "usr_5"], {
                minLength: percents.length,
                maxLength: percents.length,
              }),
              fc.array(fc.oneof(person, fc.constant(null)), { minLength: percents.length, maxLength: percents.length }),
            ),
            fc.constant(percents),
          )
          .map(([users, ps]) => ps.map((percent, i) => ({ user_id: users[i] ?? null, percent }))),
      ),
    );
    const values: fc.Arbitrary<DealValues> = fc.record({
      opportunity_name: mostly(
        fc.constantFrom("Acme", " Acme renewal "),
        fc.constantFrom("", " ", "n".repeat(501), "n".repeat(500)),
      ),
      owner_id: mostly(fc.constant("usr_1"), fc.constant(null)),
      arr_amount: mostly(
        fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
        fc.constantFrom("", -0.01, 1.005, 1e-7, 999_999_999_999.99, 1e12, "12."),
      ),
      currency: mostly(fc.constantFrom("USD", "eur", " gbp "), fc.constantFrom("US", "", "1AB", "EURO")),
      deal_type: fc.constantFrom<DealValues["deal_type"]>("new_business", "expansion", "renewal", "other"),
      close_date: mostly(
        fc.constant("2026-11-20"),
        fc.constantFrom("", "2026-02-30", "0000-01-01", "2026-1-5", "2024-02-29"),
      ),
      splits,
      contract_start: mostly(fc.constant(""), fc.constantFrom("2026-12-01", "2027-01-01", "2026-13-01", "2027-11-30")),
      contract_end: mostly(fc.constant(""), fc.constantFrom("2026-12-01", "2027-11-30", "2027-02-29")),
      external_id: mostly(fc.constantFrom("", "crm-1"), fc.constantFrom(" ", "c".repeat(256), "c".repeat(255), " c ")),
    });
    fc.assert(
      fc.property(values, (v) => {
        const found = dealProblems(v);
        const { ok, issues } = apiAccepts(v);
        expect(Object.keys(found).length === 0, JSON.stringify({ v, found, issues })).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  it("credits at most 50 people, as the API does", () => {
    const fiftyOne = { ...valid, splits: [...split(["usr_50", 2])] };
    for (let i = 0; i < 50; i++) fiftyOne.splits.push({ user_id: `usr_${i}`, percent: 1.96 });
    expect(splitSum(fiftyOne.splits)).toBe(100);
    expect(dealProblems(fiftyOne)).toEqual({ splits: "Credit at most 50 people." });
    expect(apiAccepts(fiftyOne).ok).toBe(false);
  });

  it("the sum said in words is the exact sum, to the ten-thousandth", () => {
    expect(splitSum(split(["a", 0.1], ["b", 0.2]))).toBe(0.3);
    expect(splitSum(split(["a", 33.3333], ["b", 33.3333], ["c", 33.3333]))).toBe(99.9999);
    expect(splitSum(split(["a", ""], ["b", 50]))).toBeUndefined();
  });
});

describe("previewBody", () => {
  it("prices what sets the lines, once the API would take those fields", () => {
    expect(previewBody({ ...valid, opportunity_name: "", external_id: "crm-1" })).toEqual({
      opportunity_name: "New deal",
      owner_id: "usr_1",
      arr_amount: 24000.5,
      currency: "USD",
      deal_type: "renewal",
      close_date: "2026-11-20",
    });
    expect(previewBody({ ...valid, contract_start: "2026-12-01" })).not.toBeNull();
    expect(previewBody(valid, "deal_1")).toMatchObject({ opportunity_name: "Acme renewal", deal_id: "deal_1" });
    expect(previewBody({ ...valid, arr_amount: "" })).toBeNull();
    expect(previewBody({ ...valid, splits: split(["usr_1", 50]) })).toBeNull();
    expect(previewBody({ ...valid, owner_id: null })).toBeNull();
  });

  it("every body it gives, the API's preview schema takes", () => {
    const values: fc.Arbitrary<DealValues> = fc.record({
      opportunity_name: fc.string({ maxLength: 8 }),
      owner_id: fc.constantFrom("usr_1", null),
      arr_amount: fc.oneof(
        fc.constant(""),
        fc.integer({ min: -100, max: 100_000 }).map((n) => n / 100),
      ),
      currency: fc.constantFrom("USD", "eur", "US"),
      deal_type: fc.constantFrom<DealValues["deal_type"]>("new_business", "other"),
      close_date: fc.constantFrom("2026-11-20", ""),
      splits: fc.array(
        fc.record({
          user_id: fc.constantFrom("usr_1", "usr_2", null),
          percent: fc.oneof(fc.constant(""), fc.integer({ min: 0, max: 100 })),
        }),
        { maxLength: 3 },
      ),
      contract_start: fc.constantFrom("", "2026-12-01"),
      contract_end: fc.constantFrom("", "2026-11-01"),
      external_id: fc.constantFrom("", "c".repeat(300)),
    });
    fc.assert(
      fc.property(values, (v) => {
        const body = previewBody(v, "deal_1");
        if (body) expect(PreviewBody.safeParse(body).success, JSON.stringify(body)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

const deal = (change: Partial<DealDetail> = {}): DealDetail =>
  ({
    id: "deal_1",
    opportunity_name: "Acme renewal",
    owner_id: "usr_1",
    arr_amount: 24000.5,
    currency: "USD",
    deal_type: "renewal",
    close_date: "2026-11-20",
    splits: [{ user_id: "usr_1", percent: 100 }],
    contract_start: null,
    contract_end: null,
    external_id: null,
    ...change,
  }) as DealDetail;

describe("dealPatch", () => {
  it("an unchanged deal sends nothing; each change sends only itself", () => {
    expect(dealPatch(deal(), valuesOfDeal(deal()))).toEqual({});
    expect(dealPatch(deal(), { ...valuesOfDeal(deal()), arr_amount: 30000 })).toEqual({ arr_amount: 30000 });
    expect(dealPatch(deal(), { ...valuesOfDeal(deal()), external_id: " crm-9 " })).toEqual({ external_id: "crm-9" });
    expect(dealPatch(deal({ external_id: "crm-9" }), { ...valuesOfDeal(deal()), external_id: "" })).toEqual({
      external_id: null,
    });
    expect(
      dealPatch(deal(), { ...valuesOfDeal(deal()), contract_start: "2026-12-01", contract_end: "2027-11-30" }),
    ).toEqual({ contract_start: "2026-12-01", contract_end: "2027-11-30" });
  });

  it("splits: the rows when they change; none means the owner at 100 %, following the owner again", () => {
    const split6040 = deal({
      splits: [
        { user_id: "usr_1", percent: 60 },
        { user_id: "usr_2", percent: 40 },
      ],
    });
    expect(valuesOfDeal(split6040).splits).toEqual(split(["usr_1", 60], ["usr_2", 40]));
    expect(dealPatch(split6040, valuesOfDeal(split6040))).toEqual({});
    expect(dealPatch(split6040, { ...valuesOfDeal(split6040), splits: split(["usr_1", 50], ["usr_2", 50]) })).toEqual({
      splits: [
        { user_id: "usr_1", percent: 50 },
        { user_id: "usr_2", percent: 50 },
      ],
    });
    expect(dealPatch(split6040, { ...valuesOfDeal(split6040), splits: [] })).toEqual({ splits: null });
    expect(dealPatch(deal(), { ...valuesOfDeal(deal()), owner_id: "usr_2" })).toEqual({
      owner_id: "usr_2",
      splits: null,
    });
  });

  it("every patch of valid values is a body the API's PATCH schema takes", () => {
    fc.assert(
      fc.property(
        fc.record({
          arr_amount: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100),
          owner_id: fc.constantFrom("usr_1", "usr_2"),
          external_id: fc.constantFrom("", "crm-1"),
          splits: fc.constantFrom([], split(["usr_1", 50], ["usr_2", 50])),
        }),
        (change) => {
          const values = { ...valuesOfDeal(deal()), ...change };
          expect(dealProblems(values)).toEqual({});
          expect(UpdateDealBody.safeParse(dealPatch(deal(), values)).success).toBe(true);
        },
      ),
    );
  });
});

describe("the API's refusals in words", () => {
  it("says the API's field strings in words; a parameter it does not know keeps its message", () => {
    expect(
      dealErrorsInWords({
        opportunity_name: "must be at least 1 characters",
        currency: "XYZ is not an active ISO 4217 currency code",
        owner_id: "user usr_9 does not exist",
        splits: "percents must sum to exactly 100 (they sum to 90.5)",
        "splits[1].user_id": "repeats splits[0].user_id",
        "splits[2].percent": "must be greater than 0",
        contract_end: "must be after contract_start (2026-12-01)",
        other: "must be something",
      }),
    ).toEqual({
      opportunity_name: "Give the deal a name of at most 500 characters.",
      currency: "XYZ is not a currency code in use: give one such as USD or EUR.",
      owner_id: "The owner is not someone the service knows: pick another.",
      splits: "The shares add up to 90.5%; they must add up to exactly 100 %.",
      "splits[1].user_id": "This person already has a share above.",
      "splits[2].percent": "Give a share above 0 and at most 100 %, with at most 4 decimals.",
      contract_end: "Pick a contract end after its start, or leave both empty.",
      other: "must be something",
    });
  });

  it("a CRM id another deal holds (409) is said beside the CRM id field", () => {
    const taken = new ApiError(409, "conflict", "A deal with external_id crm-1 already exists (deal_01ABC)", "req_1");
    expect(dealErrorsOf(taken)).toEqual({
      external_id: "Another deal (deal_01ABC) already has this CRM id: give another, or leave it empty.",
    });
    expect(dealErrorsOf(new ApiError(412, "precondition_failed", "stale", "req_2"))).toEqual({});
  });
});
