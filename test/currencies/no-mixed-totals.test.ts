import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission, PeriodSummary, Statement, TeamStatement } from "../../src/commissions/index.js";
import type { PayoutGroup } from "../../src/commissions/testing.js";
import type { Deal, DealDetail } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

/*
 * API.md §15 "nothing sums across currencies": a data set whose deals hold lines in several currencies
 * (USD and EUR deals, a EUR SPIFF on a USD plan's rep, adjustments in EUR and JPY), then every response
 * that carries a total, walked from one table: each total must equal the Σ of the lines of exactly the
 * currency it states, to the minor unit. The lines come from GET /commissions (each carries its currency).
 */

const t: TestApp = await createTestApp({ clock: new TestClock(Date.parse("2026-08-01T12:00:00.000Z")) });
const admin = new Api(t, "admin");
let usdRep: User;
let eurRep: User;
let repSession: SignedInSession;
const deals: DealDetail[] = [];
let lines: Commission[] = [];

/** Money compared in thousandths (the most decimals a currency has): exact for amounts the API writes. */
const milli = (n: number) => Math.round(n * 1000);
const sumOf = (ls: Commission[]) => ls.reduce((acc, l) => acc + milli(l.amount), 0);
const live = (l: Commission) => l.status !== "void";

/** One total a response states: in `currency`, over the lines `of` selects. */
interface Claim {
  what: string;
  currency: string;
  amount: number;
  of: (l: Commission) => boolean;
}

function check(claims: Claim[]): void {
  expect(claims.length).toBeGreaterThan(0);
  for (const c of claims) {
    const expected = sumOf(lines.filter((l) => l.currency === c.currency && c.of(l)));
    expect({ what: c.what, amount: milli(c.amount) }).toEqual({ what: c.what, amount: expected });
  }
}

/** A deal's own totals: commission_totals per currency, and total_commission in total_commission_currency. */
function dealClaims(d: Deal, who: (l: Commission) => boolean = () => true): Claim[] {
  const ofDeal = (l: Commission) => l.deal_id === d.id && live(l) && who(l);
  const currencies = [...new Set(lines.filter(ofDeal).map((l) => l.currency))].sort();
  expect(d.commission_totals.map((x) => x.currency)).toEqual(currencies);
  if (currencies.length === 1) expect(d.total_commission_currency).toBe(currencies[0]);
  if (currencies.length === 0) expect(d.total_commission_currency).toBe(d.currency);
  return [
    ...d.commission_totals.map((x) => ({ what: `${d.id} ${x.currency}`, ...x, of: ofDeal })),
    { what: `${d.id} total_commission`, currency: d.total_commission_currency, amount: d.total_commission, of: ofDeal },
  ];
}

const KINDS = ["plan", "spiff", "override", "adjustment", "clawback"] as const;

function statementClaims(
  who: string,
  period: string,
  s: Pick<Statement, "currency" | "totals" | "totals_by_currency" | "by_status">,
): Claim[] {
  const of = (l: Commission) => l.user_id === who && l.period === period && live(l);
  const currencies = [...new Set(lines.filter(of).map((l) => l.currency))].sort();
  expect(s.totals_by_currency.map((x) => x.currency)).toEqual(currencies);
  const byKind = (currency: string, totals: Statement["totals"]) => [
    ...KINDS.map((kind) => ({
      what: `${who} ${period} ${currency} ${kind}`,
      currency,
      amount: totals[kind],
      of: (l: Commission) => of(l) && l.kind === kind,
    })),
    { what: `${who} ${period} ${currency} total`, currency, amount: totals.total, of },
  ];
  const byStatus = (["pending", "approved", "paid"] as const).map((status) => ({
    what: `${who} ${period} ${s.currency} ${status}`,
    currency: s.currency,
    amount: s.by_status[status],
    of: (l: Commission) => of(l) && l.status === status,
  }));
  return [...byKind(s.currency, s.totals), ...s.totals_by_currency.flatMap((x) => byKind(x.currency, x)), ...byStatus];
}

const get = async <T>(url: string) => ok<T>(await admin.get(url));

/** Every total-bearing response, by route: each row reads it and states its totals. */
const ROUTES: [string, () => Promise<Claim[]>][] = [
  [
    "GET /deals/{id}",
    async () => (await Promise.all(deals.map((d) => get<DealDetail>(`/deals/${d.id}`)))).flatMap((d) => dealClaims(d)),
  ],
  [
    "GET /deals",
    async () => {
      const page = await get<Page<Deal>>(`/deals?owner_id=${usdRep.id}&per_page=100`);
      expect(page.data.length).toBeGreaterThan(0);
      return page.data.flatMap((d) => dealClaims(d));
    },
  ],
  [
    "GET /deals/{id} and GET /deals as a rep (API.md §20 b)",
    async () => {
      const own = (l: Commission) => l.user_id === usdRep.id;
      const read = async <T>(url: string) =>
        ok<T>(await t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: repSession.headers() }));
      const one = await Promise.all(deals.map((d) => read<DealDetail>(`/deals/${d.id}`)));
      const listed = (await read<Page<Deal>>("/deals?per_page=100")).data;
      return [...one, ...listed].flatMap((d) => {
        expect(d.total_commission_scope).toBe("visible");
        return dealClaims(d, own);
      });
    },
  ],
  [
    "GET /deals/{id}/history",
    async () => {
      const claims: Claim[] = [];
      for (const d of deals) {
        const latest = (await get<Page<{ action: string; after: Deal | null }>>(`/deals/${d.id}/history`)).data.find(
          (e) => e.after && "commission_totals" in e.after,
        );
        if (latest?.after) claims.push(...dealClaims(latest.after));
      }
      return claims;
    },
  ],
  [
    "GET /users/{id}/statement (default currency and each ?currency=)",
    async () => {
      const claims: Claim[] = [];
      for (const who of [usdRep.id, eurRep.id]) {
        const s = await get<Statement>(`/users/${who}/statement?period=2026-Q3`);
        claims.push(...statementClaims(who, "2026-Q3", s));
        for (const { currency } of s.totals_by_currency) {
          const other = await get<Statement>(`/users/${who}/statement?period=2026-Q3&currency=${currency}`);
          expect(other.currency).toBe(currency);
          claims.push(...statementClaims(who, "2026-Q3", other));
        }
      }
      return claims;
    },
  ],
  [
    "GET /users/statements",
    async () => {
      const page = await get<Page<TeamStatement>>("/users/statements?period=2026-Q3&per_page=100");
      return page.data
        .filter((s) => s.user.id === usdRep.id || s.user.id === eurRep.id)
        .flatMap((s) => statementClaims(s.user.id, s.period, s));
    },
  ],
  [
    "GET /users/{id}/periods",
    async () => {
      const page = await get<Page<PeriodSummary>>(`/users/${usdRep.id}/periods`);
      return page.data.flatMap((p) => {
        const of = (l: Commission) => l.user_id === usdRep.id && l.period === p.period && live(l);
        return [
          { what: `periods ${p.period} total`, currency: p.currency, amount: p.total, of },
          ...p.totals_by_currency.map((x) => ({ what: `periods ${p.period} ${x.currency}`, ...x, of })),
        ];
      });
    },
  ],
  [
    "GET /payouts",
    async () => {
      const page = await get<Page<PayoutGroup>>("/payouts?per_page=100");
      return page.data.map((g) => ({
        what: `payouts ${g.user_id} ${g.period} ${g.currency}`,
        currency: g.currency,
        amount: g.total,
        of: (l: Commission) => l.user_id === g.user_id && l.period === g.period && l.status === "approved",
      }));
    },
  ],
];

beforeAll(async () => {
  usdRep = await createUser(t, { role: "rep" });
  eurRep = await createUser(t, { role: "rep" });
  repSession = await signedInAs(t, usdRep);
  const usdPlan = await createPlan(admin, { currency: "USD" });
  const eurPlan = await createPlan(admin, { currency: "EUR" });
  await assign(admin, usdPlan.id, usdRep.id);
  await assign(admin, eurPlan.id, eurRep.id);
  ok(await admin.put("/exchange-rates/2026-07-14", { base: "USD", rates: { EUR: "0.92" } }), 201);
  const window = { starts_on: "2026-07-01", ends_on: "2026-09-30" };
  ok(
    await admin.post("/spiffs", {
      name: "EUR push",
      currency: "EUR",
      ...window,
      payout: { type: "flat", amount: 100 },
    }),
    201,
  );
  deals.push(await createDeal(admin, usdRep.id, { arr_amount: 10000, currency: "USD", close_date: "2026-07-15" }));
  deals.push(await createDeal(admin, usdRep.id, { arr_amount: 20000, currency: "EUR", close_date: "2026-07-15" }));
  const splits = [
    { user_id: eurRep.id, percent: 50 },
    { user_id: usdRep.id, percent: 50 },
  ];
  deals.push(
    await createDeal(admin, eurRep.id, { arr_amount: 5000, currency: "EUR", close_date: "2026-07-20", splits }),
  );
  const [usdDeal, eurDeal, shared] = deals as [DealDetail, DealDetail, DealDetail];
  const adjust = async (body: Record<string, unknown>) =>
    ok<Commission>(
      await admin.post("/commissions/adjustments", { reason: "fx walk", period: "2026-Q3", ...body }),
      201,
    );
  await adjust({ deal_id: usdDeal.id, user_id: usdRep.id, amount: 12.34, currency: "EUR" });
  await adjust({ deal_id: eurDeal.id, user_id: usdRep.id, amount: 500, currency: "JPY" });
  await adjust({ deal_id: shared.id, user_id: eurRep.id, amount: -7.5 });
  await approveAsOwner(t, usdDeal.id);
  await approveAsOwner(t, shared.id);
  lines = ok<Page<Commission>>(await admin.get("/commissions?per_page=100")).data;
});
afterAll(() => t.close());

describe("adjustments carry their own currency (API.md §15)", () => {
  const body = (over: Record<string, unknown>) => ({
    deal_id: deals[0]!.id,
    user_id: usdRep.id,
    reason: "currency",
    period: "2026-Q4",
    ...over,
  });

  it("default: the user's plan line's currency on the deal; the answer and the line carry it", async () => {
    const line = ok<Commission>(await admin.post("/commissions/adjustments", body({ amount: 1.5 })), 201);
    expect(line.currency).toBe("USD");
    expect(ok<Commission>(await admin.get(`/commissions/${line.id}`)).currency).toBe("USD");
    const jpy = ok<Commission>(
      await admin.post("/commissions/adjustments", body({ amount: -3, currency: "JPY" })),
      201,
    );
    expect([jpy.currency, jpy.amount]).toEqual(["JPY", -3]);
  });

  it("the amount has at most the currency's decimals; an unknown code is refused (422)", async () => {
    for (const [amount, currency, param] of [
      [1.5, "JPY", "amount"],
      [1.234, "EUR", "amount"],
      [1, "XYZ", "currency"],
      [1, "usd", "currency"],
    ] as const) {
      const res = await admin.post("/commissions/adjustments", body({ amount, currency }));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.code).toBe("validation_error");
      expect(res.json().error.details.map((d: { param: string }) => d.param)).toEqual([param]);
    }
    const kwd = ok<Commission>(
      await admin.post("/commissions/adjustments", body({ amount: 1.234, currency: "KWD" })),
      201,
    );
    expect(kwd.amount).toBe(1.234);
  });
});

describe("no total mixes currencies (API.md §15)", () => {
  it("the data set holds deals with lines in several currencies", () => {
    const currenciesOf = (id: string) =>
      new Set(lines.filter((l) => l.deal_id === id && live(l)).map((l) => l.currency));
    expect(deals.filter((d) => currenciesOf(d.id).size > 1).length).toBeGreaterThanOrEqual(2);
    expect(new Set(lines.map((l) => l.currency))).toEqual(new Set(["USD", "EUR", "JPY"]));
  });

  it.each(ROUTES)("%s: every total is the Σ of the lines of its currency", async (_route, read) => {
    lines = ok<Page<Commission>>(await admin.get("/commissions?per_page=100")).data;
    check(await read());
  });
});
