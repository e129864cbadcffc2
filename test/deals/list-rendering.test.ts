import fc from "fast-check";
import { serializerCompiler } from "fastify-type-provider-zod";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deal } from "../../src/deals/index.js";
import { DEAL_STATUSES, DEAL_TYPES } from "../../src/enums.js";
import { etagOf } from "../../src/http/etag.js";
import { listOf } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, createDeal, ok, rejectAsOwner, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

// GET /deals sends the page PostgreSQL renders as JSON text, without the zod serializer (bench/README.md,
// list-deals). These prove its bytes are the ones the zod serializer of the route's schema writes for the
// deals as GET /deals/{id} reads them (toDeal), for deals built through the API and for stored values
// drawn at random (strings needing escapes, amounts of every size, times of every year).

const serialize = serializerCompiler({ schema: listOf(Deal), method: "GET", url: "/deals" });

let t: TestApp;
let api: Api;
const ids: string[] = [];
let planless: User;

beforeAll(async () => {
  const clock = new TestClock();
  t = await createTestApp({ clock });
  api = new Api(t, "admin");
  const a = await repOnPlan(api);
  const b = await repOnPlan(api);
  planless = await createUser(t);
  const bodies = [
    { arr_amount: 1234.5, opportunity_name: 'Quote " backslash \\ tab \t é 😀', external_id: "crm-1" },
    {
      arr_amount: 999_999_999_999.99,
      splits: [
        { user_id: a.user.id, percent: 33.3333 },
        { user_id: b.user.id, percent: 66.6667 },
      ],
    },
    { arr_amount: 0.01, deal_type: "renewal", currency: "EUR" },
    // No plan in force for the second user: the deal's explanation says so.
    {
      arr_amount: 2000,
      splits: [
        { user_id: a.user.id, percent: 60 },
        { user_id: planless.id, percent: 40 },
      ],
    },
    { arr_amount: 0, owner_id: planless.id },
    { arr_amount: 7000 },
  ];
  for (const body of bodies) {
    clock.advance(1234);
    ids.push((await createDeal(api, a.user.id, body)).id);
  }
  await approveAsOwner(t, ids[1]!);
  await approveAsOwner(t, ids[0]!, "paid"); // ids[2] stays pending, waiting for an EUR→USD rate (fx_missing)
  await rejectAsOwner(t, ids[3]!, 'a "reason"\nwith a newline');
  await approveAsOwner(t, ids[5]!, "disputed");
});
afterAll(() => t.close());

/**
 * The response to GET /deals, and the bytes the zod serializer writes for the same deals read one by one
 * (a session's headers: as that user, else as the admin key).
 */
async function listedAndExpected(query: string, headers?: Record<string, string>) {
  const get = (url: string) =>
    headers ? t.app.inject({ method: "GET", url: `/api/v1${url}`, headers }) : api.get(url);
  const res = await get(`/deals?${query}`);
  const body = ok<{ data: { id: string }[]; meta: unknown }>(res);
  const details = [];
  for (const { id } of body.data) details.push(ok(await get(`/deals/${id}`)));
  return { res, expected: serialize({ data: details, meta: body.meta }) };
}

describe("GET /deals renders its page as the zod serializer would", () => {
  it.each([
    "per_page=100",
    "per_page=100&sort=arr_amount",
    "per_page=2&page=2&sort=-total_commission",
    "status=approved,paid,disputed&per_page=100&sort=close_date",
    "status=rejected",
    "q=quote",
    "status=pending&page=9",
  ])("byte for byte: %s", async (query) => {
    const { res, expected } = await listedAndExpected(query);
    expect(res.body).toBe(expected);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("lists the deals built, with their explanation and workflow stamps", async () => {
    const { res } = await listedAndExpected("per_page=100&sort=created_at");
    const page = listOf(Deal).parse(JSON.parse(res.body));
    expect(page.data.map((d) => d.id)).toEqual(ids);
    expect(page.meta).toEqual({ page: 1, per_page: 100, total: 6 });
    expect(page.data[3]!.explanation?.no_plan.map((n) => n.reason)).toEqual([expect.any(String)]);
    expect(page.data.map((d) => d.status)).toEqual(["paid", "approved", "pending", "rejected", "pending", "disputed"]);
  });

  it("an empty page is an empty array", async () => {
    const { res, expected } = await listedAndExpected("status=approved&page=50");
    expect(res.body).toBe(expected);
    expect(JSON.parse(res.body).data).toEqual([]);
  });

  it("carries the ETag of its bytes, and answers 304 to it", async () => {
    const res = await api.get("/deals?per_page=100");
    const etag = etagOf(res.body);
    expect(res.headers.etag).toBe(etag);
    const again = await api.get("/deals?per_page=100", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("a rep's page holds the deals they own or are credited on, rendered the same", async () => {
    const session = await signedInAs(t, planless);
    const { res, expected } = await listedAndExpected("per_page=100&sort=created_at", session.headers());
    expect(res.body).toBe(expected);
    expect(JSON.parse(res.body).data.map((d: { id: string }) => d.id)).toEqual([ids[3], ids[4]]);
  });
});

// Text PostgreSQL can store (no NUL), with the characters JSON escapes, or may not, over-represented.
const SPECIAL = ['"', "\\", "\n", "\r", "\t", "\b", "\f", "\u0001", "\u001f", "\u007f", "\u2028", "é", "😀", "/", "<"];
const text = fc
  .oneof(
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.array(fc.constantFrom(...SPECIAL), { maxLength: 8 }).map((cs) => cs.join("")),
  )
  .map((s) => s.replaceAll("\u0000", ""));
const cents = (max: bigint, signed: boolean) =>
  fc.oneof(fc.bigInt({ min: signed ? -1_000_000n : 0n, max: 1_000_000n }), fc.bigInt({ min: signed ? -max : 0n, max }));
const decimal = (units: bigint, scale: number) => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};
// From year 100: the drivers read earlier years as 19xx into a Date (GET /deals/{id}); the list renders them as stored.
const time = fc.date({
  min: new Date("0100-01-01T00:00:00.000Z"),
  max: new Date("9999-12-31T23:59:59.999Z"),
  noInvalidDate: true,
});
const day = (d: Date) => d.toISOString().slice(0, 10);
/** A contract of `days` days from `start` (ending `start` when that would pass year 9999). */
function contractOf(c: [Date, number] | null): [string, string] | null {
  if (!c) return null;
  const [start, days] = c;
  const later = new Date(start.getTime() + days * 86_400_000);
  if (later.getUTCFullYear() <= 9999) return [day(start), day(later)];
  return [day(new Date(start.getTime() - days * 86_400_000)), day(start)];
}
const stored = fc.record({
  external_id: fc.option(text),
  opportunity_name: text,
  arr_amount: cents(10n ** 18n - 1n, false),
  currency: fc.constantFrom("USD", "EUR", "JPY"),
  deal_type: fc.constantFrom(...DEAL_TYPES),
  close_date: time,
  status: fc.constantFrom(...DEAL_STATUSES),
  total_commission: cents(10n ** 20n - 1n, true),
  rejection_reason: fc.option(text),
  approved_at: fc.option(time),
  paid_at: fc.option(time),
  contract: fc.option(fc.tuple(time, fc.integer({ min: 1, max: 4000 }))),
  cancelled_at: fc.option(time),
  cancel_reason: fc.option(text),
  cancel_effective_date: fc.option(time),
  refunded_amount: cents(10n ** 16n - 1n, false),
  created_at: time,
  updated_at: time,
  splits: fc.array(fc.record({ percent: fc.integer({ min: 1, max: 1_000_000 }), no_plan_reason: fc.option(text) }), {
    minLength: 2,
    maxLength: 2,
  }),
});

describe("GET /deals renders any stored deal as the zod serializer would", () => {
  it("byte for byte, for deals rewritten with random stored values", async () => {
    // Deals 1 and 3 have two splits each; their stored values are rewritten in place, then listed.
    const rewritten = [ids[1]!, ids[3]!];
    await fc.assert(
      fc.asyncProperty(fc.tuple(stored, stored), async (values) => {
        for (const [i, v] of values.entries()) {
          const id = rewritten[i]!;
          await sql`UPDATE deals SET
              external_id = ${v.external_id === null ? null : `${v.external_id}#${i}`},
              opportunity_name = ${v.opportunity_name},
              arr_amount = ${decimal(v.arr_amount, 2)}::numeric, currency = ${v.currency},
              deal_type = ${v.deal_type}, close_date = ${v.close_date.toISOString().slice(0, 10)}::date,
              status = ${v.status}, total_commission = ${decimal(v.total_commission, 2)}::numeric,
              rejection_reason = ${v.rejection_reason},
              approved_at = ${v.approved_at?.toISOString() ?? null}::timestamptz,
              paid_at = ${v.paid_at?.toISOString() ?? null}::timestamptz,
              contract_start = ${contractOf(v.contract)?.[0] ?? null}::date,
              contract_end = ${contractOf(v.contract)?.[1] ?? null}::date,
              cancelled_at = ${v.cancelled_at?.toISOString() ?? null}::timestamptz,
              cancel_reason = ${v.cancel_reason},
              cancel_effective_date = ${v.cancel_effective_date ? day(v.cancel_effective_date) : null}::date,
              refunded_amount = ${decimal(v.refunded_amount, 2)}::numeric,
              created_at = ${v.created_at.toISOString()}::timestamptz,
              updated_at = ${v.updated_at.toISOString()}::timestamptz
            WHERE id = ${id}`.execute(t.db.db);
          for (const [position, split] of v.splits.entries()) {
            await sql`UPDATE deal_splits SET percent = ${decimal(BigInt(split.percent), 4)}::numeric,
                no_plan_reason = ${split.no_plan_reason}
              WHERE deal_id = ${id} AND position = ${position}`.execute(t.db.db);
          }
        }
        for (const query of [
          "per_page=100",
          "per_page=100&sort=-arr_amount",
          `external_id=${encodeURIComponent(`${values[0].external_id}#0`)}`,
        ]) {
          const { res, expected } = await listedAndExpected(query);
          expect(res.body).toBe(expected);
        }
      }),
      { numRuns: 40 },
    );
    // 40 rewrites of 12 more columns each (§14): 4–7 s alone, past the default 30 s once on a loaded 2-core run.
  }, 90_000);
});
