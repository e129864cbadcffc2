import fc from "fast-check";
import { validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { BulkBody } from "../../src/deals/index.js";
import { BulkEnvelope, BulkItem } from "../../src/deals/testing.js";
import { validatorInPieces } from "../../src/http/body-in-pieces.js";

/**
 * #19 no stall: POST /deals/bulk validates its deals one at a time, the loop turning between them. Its
 * answer must be the whole schema's, to the issue and to the value, for any body: this compares the two
 * validators on bodies built from valid deals, broken deals and broken envelopes.
 */

type Issue = { instancePath: string; message: string; keyword: string };
type Result = { error?: Issue[]; value?: unknown };

const route = (schema: unknown) => ({ schema, method: "POST", url: "/deals/bulk", httpPart: "body" }) as never;
const whole = validatorCompiler(route(BulkBody)) as unknown as (data: unknown) => Result;
const inPieces = validatorInPieces({ envelope: BulkEnvelope, key: "deals", item: BulkItem })(route(BulkBody)) as (
  data: unknown,
) => Promise<true>;

/** The pieces validator as Fastify sees it: the error it throws, or the body it leaves behind. */
async function piecewise(data: unknown): Promise<Result> {
  try {
    await inPieces(data);
    return { value: data };
  } catch (err) {
    return { error: (err as { validation: Issue[] }).validation };
  }
}

const shape = (issues: Issue[] | undefined) =>
  issues?.map(({ instancePath, message, keyword }) => ({ instancePath, message, keyword }));

const validDeal = fc.record({
  external_id: fc.constantFrom("crm-1", " crm-2 ", "x".repeat(255)),
  opportunity_name: fc.constantFrom("Acme", "  Globex  ", "日本"),
  arr_amount: fc.constantFrom(0, 1, 1234.5, 99999999.99),
  close_date: fc.constantFrom("2026-01-31", "2026-11-26"),
  owner_id: fc.constantFrom("usr_1", "usr_2"),
});

/** A valid deal, or one with a field broken, a field added, a split that does not sum, or not an object. */
const anyDeal = fc.oneof(
  validDeal,
  validDeal.map((d) => ({ ...d, currency: "usd" })),
  validDeal.map((d) => ({ ...d, deal_type: "upsell" })),
  validDeal.map((d) => ({
    ...d,
    splits: [
      { user_id: "usr_1", percent: 60 },
      { user_id: "usr_2", percent: 40 },
    ],
  })),
  validDeal.map((d) => ({
    ...d,
    splits: [
      { user_id: "usr_1", percent: 60 },
      { user_id: "usr_1", percent: 30 },
    ],
  })),
  validDeal.map((d) => ({ ...d, arr_amount: -1 })),
  validDeal.map((d) => ({ ...d, arr_amount: "12" })),
  validDeal.map((d) => ({ ...d, close_date: "2026-02-30" })),
  validDeal.map((d) => ({ ...d, total_commission: 5 })),
  validDeal.map(({ owner_id: _, ...d }) => d),
  validDeal.map((d) => ({ ...d, external_id: "" })),
  fc.constantFrom(null, 7, "deal", []),
);

const anyBody = fc.oneof(
  { weight: 6, arbitrary: fc.array(anyDeal, { minLength: 1, maxLength: 6 }).map((deals) => ({ deals })) },
  fc.array(anyDeal, { maxLength: 3 }).map((deals) => ({ deals, extra: true })),
  fc.constant({ deals: [] }),
  fc.constant({ deals: "none" }),
  fc.constant({}),
  fc.constant(null),
  fc.constant([]),
);

describe("#19 POST /deals/bulk validated a deal at a time: the same answer as validated whole", () => {
  it("any body: the same issues, in the same order, or the same parsed body", async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const expected = whole(structuredClone(body));
        const actual = await piecewise(structuredClone(body));
        expect(shape(actual.error)).toEqual(shape(expected.error));
        if (!expected.error) expect(actual.value).toEqual(expected.value);
      }),
      { numRuns: 400 },
    );
  });

  it("1,001 deals: only the size is refused, as the whole schema says", async () => {
    const deal = { external_id: "a", opportunity_name: "A", arr_amount: 1, close_date: "2026-01-01", owner_id: "u" };
    const body = { deals: Array.from({ length: 1001 }, () => deal) };
    const actual = await piecewise(structuredClone(body));
    expect(shape(actual.error)).toEqual(shape(whole(structuredClone(body)).error));
    expect(shape(actual.error)).toEqual([
      { instancePath: "/deals", message: "must hold at most 1000 deals", keyword: "too_big" },
    ]);
  });

  it("a broken deal among valid ones is named by its index, its value left unparsed", async () => {
    const deal = { external_id: " a ", opportunity_name: "A", arr_amount: 1, close_date: "2026-01-01", owner_id: "u" };
    const body = { deals: [deal, { ...deal, arr_amount: "x" }, deal] };
    const actual = await piecewise(body);
    expect(actual.error?.map((i) => i.instancePath)).toEqual(["/deals/1/arr_amount"]);
    expect(body.deals[0]!.external_id).toBe(" a ");
  });
});
