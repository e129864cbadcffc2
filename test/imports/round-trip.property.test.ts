import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, unique } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { postCsv } from "./support.js";

/** Deals written to a CSV file (every cell quoted, RFC 4180) and imported come back as GET /deals shows them. */

let t: TestApp;
let api: Api;
let reps: { id: string; email: string }[] = [];
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "admin");
  reps = await Promise.all([1, 2, 3].map(() => createUser(t)));
});
afterAll(() => t.close());

interface Written {
  external_id: string;
  opportunity_name: string;
  arr_amount: string;
  currency: string;
  deal_type: string;
  close_date: string;
  owner: number;
  /** Each split's rep and percent (four decimals at most, summing to exactly 100); null: the owner at 100. */
  splits: { rep: number; percent: string }[] | null;
  contract: [string, string] | null;
  /** Name users by email rather than by id. */
  byEmail: boolean;
}

const day = fc
  .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** Text as a spreadsheet holds it: commas, quotes, line breaks, accents, emoji; trimmed and not empty. */
const name = fc
  .array(fc.constantFrom("Acme", ",", '"', "\n", "\r\n", " ", "é", "🚀", "Inc.", "O'Neil", ";", "x"), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join("").trim())
  .filter((s) => s.length > 0);
const cents = fc
  .bigInt({ min: 0n, max: 99_999_999_999n })
  .map((c) => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`);
/** Percents in ten-thousandths summing to 100 (1,000,000), by cutting at sorted points. */
const splits = fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }).chain((users) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: users.length - 1, maxLength: users.length - 1 })
    .map((cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), 1_000_000];
      return users.map((rep, i) => {
        const units = points[i + 1]! - points[i]!;
        return { rep, percent: `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, "0")}` };
      });
    }),
);
const deal: fc.Arbitrary<Written> = fc.record({
  external_id: fc.constant("").map(() => unique("rt")),
  opportunity_name: name,
  arr_amount: cents,
  currency: fc.constantFrom("USD", "EUR", "GBP"),
  deal_type: fc.constantFrom("new_business", "expansion", "renewal", "other"),
  close_date: day,
  owner: fc.integer({ min: 0, max: 2 }),
  splits: fc.option(splits, { nil: null }),
  contract: fc.option(
    fc.tuple(day, day).filter(([a, b]) => a < b),
    { nil: null },
  ),
  byEmail: fc.boolean(),
});

const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

function fileOf(deals: Written[]): string {
  const userCell = (d: Written, i: number) => (d.byEmail ? reps[i]!.email : reps[i]!.id);
  const header =
    "external_id,opportunity_name,arr_amount,currency,deal_type,close_date,owner_id,contract_start,contract_end,split_user_ids,split_percents";
  const rows = deals.map((d) =>
    [
      d.external_id,
      d.opportunity_name,
      d.arr_amount,
      d.currency,
      d.deal_type,
      d.close_date,
      userCell(d, d.owner),
      d.contract?.[0] ?? "",
      d.contract?.[1] ?? "",
      d.splits?.map((s) => userCell(d, s.rep)).join(";") ?? "",
      d.splits?.map((s) => s.percent).join(";") ?? "",
    ]
      .map(quote)
      .join(","),
  );
  return `${[header, ...rows].join("\r\n")}\r\n`;
}

describe("CSV round trip (fast-check)", () => {
  it("random deals written as CSV import back to the same deals, compared with GET /deals", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(deal, { minLength: 1, maxLength: 8 }), async (deals) => {
        const res = ok(await postCsv(t, "deals", fileOf(deals)));
        expect(res).toMatchObject({ created: deals.length, errors: [] });
        for (const d of deals) {
          const page = ok<Page<Deal>>(await api.get(`/deals?external_id=${encodeURIComponent(d.external_id)}`));
          expect(page.data).toHaveLength(1);
          const got = page.data[0]!;
          expect(got).toMatchObject({
            external_id: d.external_id,
            opportunity_name: d.opportunity_name,
            arr_amount: Number(d.arr_amount),
            currency: d.currency,
            deal_type: d.deal_type,
            close_date: d.close_date,
            owner_id: reps[d.owner]!.id,
            contract_start: d.contract?.[0] ?? null,
            contract_end: d.contract?.[1] ?? null,
            status: "pending",
          });
          const splitsExpected = d.splits
            ? d.splits.map((s) => ({ user_id: reps[s.rep]!.id, percent: Number(s.percent) }))
            : [{ user_id: reps[d.owner]!.id, percent: 100 }];
          expect(got.splits).toEqual(splitsExpected);
        }
        // The same file again: every row unchanged.
        expect(ok(await postCsv(t, "deals", fileOf(deals)))).toMatchObject({ unchanged: deals.length, created: 0 });
      }),
      { numRuns: 25 },
    );
  });
});
