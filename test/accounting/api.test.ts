import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountingAsset, buildEarlierAssets, type RollForward } from "../../src/accounting/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { today } from "../payout-runs/support.js";

/** API.md §17 beyond the worked examples: settings, validation, pages, currencies, kinds, later bookings. */

let t: TestApp;
let api: Api;

const DEFAULTS = {
  expected_customer_life_months: 60,
  renewal_commission_commensurate: false,
  practical_expedient: true,
  capitalize_kinds: ["plan", "spiff", "override"],
  accounts: {
    deferred_commissions: "Deferred commissions",
    commission_expense: "Commission expense",
    clawback_receivable: "Commission clawbacks receivable",
    commissions_payable: "Commissions payable",
  },
};

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-01-02");
});
afterAll(() => t.close());

const settings = async () => {
  const { updated_at: _at, ...rest } = ok<typeof DEFAULTS & { updated_at: string }>(
    await api.get("/settings/accounting"),
  );
  return rest;
};

async function approved(userId: string, arr: number, day: string, extra: Record<string, unknown> = {}) {
  today(t, day);
  const deal = await createDeal(api, userId, { arr_amount: arr, close_date: day, ...extra });
  ok(await api.post(`/deals/${deal.id}/approve`));
  return deal;
}

const assetsOf = async (dealId: string) =>
  ok<{ data: AccountingAsset[] }>(await api.get(`/accounting/schedule?deal_id=${dealId}`)).data;

describe("settings", () => {
  it("start at §17's defaults; PUT replaces the whole object, an omitted field back to its default", async () => {
    expect(await settings()).toEqual(DEFAULTS);
    ok(await api.put("/settings/accounting", { expected_customer_life_months: 48, practical_expedient: false }));
    expect(await settings()).toEqual({ ...DEFAULTS, expected_customer_life_months: 48, practical_expedient: false });
    ok(await api.put("/settings/accounting", { accounts: { commission_expense: "6100 Commissions" } }));
    expect(await settings()).toEqual({
      ...DEFAULTS,
      accounts: { ...DEFAULTS.accounts, commission_expense: "6100 Commissions" },
    });
    ok(await api.put("/settings/accounting", {}));
    expect(await settings()).toEqual(DEFAULTS);
  });

  it.each([
    [{ expected_customer_life_months: 0 }, "expected_customer_life_months"],
    [{ expected_customer_life_months: 241 }, "expected_customer_life_months"],
    [{ expected_customer_life_months: 12.5 }, "expected_customer_life_months"],
    [{ renewal_commission_commensurate: "yes" }, "renewal_commission_commensurate"],
    [{ capitalize_kinds: [] }, "capitalize_kinds"],
    [{ capitalize_kinds: ["plan", "plan"] }, "capitalize_kinds"],
    [{ capitalize_kinds: ["adjustment"] }, "capitalize_kinds[0]"],
    [{ accounts: { commission_expense: "Deferred commissions" } }, "accounts.commission_expense"],
    [{ accounts: { commission_expense: " " } }, "accounts.commission_expense"],
    [{ accounts: { commission_expense: "a\nb" } }, "accounts.commission_expense"],
    [{ accounts: { cash: "Cash" } }, "accounts.cash"],
    [{ fiscal_year_start: 4 }, "fiscal_year_start"],
  ])("%j → 422 naming %s; nothing changes", async (body, param) => {
    const before = ok(await api.get("/settings/accounting"));
    const res = await api.put("/settings/accounting", body);
    expect([res.statusCode, errorOf(res).code]).toEqual([422, "validation_error"]);
    expect(errorOf(res).details?.map((d) => d.param)).toContain(param);
    expect(ok(await api.get("/settings/accounting"))).toEqual(before);
  });

  it("a write key may read but not change them (403 naming admin)", async () => {
    const write = new Api(t, "write");
    ok(await write.get("/settings/accounting"));
    const res = await write.put("/settings/accounting", {});
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toContain("admin");
  });
});

describe("report queries", () => {
  it.each([
    ["/accounting/schedule", "deal_id"],
    ["/accounting/schedule?page=2", "deal_id"],
    ["/accounting/roll-forward?from=2026-01&to=2036-01", "to"],
    ["/accounting/roll-forward?from=2026-02&to=2026-01", "to"],
    ["/accounting/roll-forward?from=2026-01", "to"],
    ["/accounting/journal", "month"],
    ["/accounting/journal?month=2026-00", "month"],
    ["/accounting/journal?month=2026-01&summary=yes", "summary"],
  ])("%s → 422 naming %s", async (url, param) => {
    const res = await api.get(url);
    expect([res.statusCode, errorOf(res).code], res.body).toEqual([422, "validation_error"]);
    expect(errorOf(res).details?.map((d) => d.param)).toContain(param);
  });

  it("120 months is the longest span", async () => {
    ok(await api.get("/accounting/roll-forward?from=2026-01&to=2035-12"));
  });
});

describe("books", () => {
  let usd: { id: string };
  let eur: { id: string };
  let rep: { id: string };
  let euroRep: { id: string };
  beforeAll(async () => {
    today(t, "2025-12-01");
    usd = await createPlan(api, {
      period: "month",
      tiers: null,
      quota: null,
      base_rate: 0.1,
      effective_from: "2025-01-01",
    });
    eur = await createPlan(api, {
      period: "month",
      tiers: null,
      quota: null,
      base_rate: 0.1,
      currency: "EUR",
      effective_from: "2025-01-01",
    });
    rep = await createUser(t);
    euroRep = await createUser(t);
    await assign(api, usd.id, rep.id, { effective_from: "2025-01-01" });
    await assign(api, eur.id, euroRep.id, { effective_from: "2025-01-01" });
  });

  it("the journal pages its rows (two per posting) and meta sums every page", async () => {
    const deal = await approved(rep.id, 12000, "2027-03-05");
    const [asset] = await assetsOf(deal.id);
    const all = ok<{ data: unknown[]; meta: { total: number; debit: number } }>(
      await api.get("/accounting/journal?month=2027-03&currency=USD"),
    );
    expect(all.meta).toMatchObject({ total: 4, debit: 1220, credit: 1220 });
    const pages = [];
    for (const page of [1, 2]) {
      const res = await api.get(`/accounting/journal?month=2027-03&currency=USD&per_page=3&page=${page}`);
      pages.push(...ok<{ data: unknown[] }>(res).data);
      if (page === 1) expect(res.headers.link).toContain('rel="next"');
    }
    expect(pages).toEqual(all.data);
    expect(asset!.line_id).toBeTruthy();
  });

  it("no figure adds two currencies: one roll-forward row per currency, the journal's meta null across them", async () => {
    await approved(euroRep.id, 6000, "2027-03-06", { currency: "EUR" });
    const rf = ok<RollForward>(await api.get("/accounting/roll-forward?from=2027-03&to=2027-03"));
    expect(rf.data.map((r) => [r.currency, r.additions, r.amortization])).toEqual([
      ["EUR", 600, 10],
      ["USD", 1200, 20],
    ]);
    const j = ok<{ meta: { debit: number | null; credit: number | null; totals: unknown[] } }>(
      await api.get("/accounting/journal?month=2027-03"),
    );
    expect(j.meta.debit).toBeNull();
    expect(j.meta.credit).toBeNull();
    expect(j.meta.totals).toEqual([
      { currency: "EUR", debit: 610, credit: 610 },
      { currency: "USD", debit: 1220, credit: 1220 },
    ]);
    const summary = ok<{ data: { account: string; debit: number | null; credit: number | null; currency: string }[] }>(
      await api.get("/accounting/journal?month=2027-03&summary=true"),
    );
    expect(summary.data.map((r) => [r.currency, r.account, r.debit, r.credit])).toEqual([
      ["EUR", "Deferred commissions", 600, null],
      ["EUR", "Deferred commissions", null, 10],
      ["EUR", "Commission expense", 10, null],
      ["EUR", "Commissions payable", null, 600],
      ["USD", "Deferred commissions", 1200, null],
      ["USD", "Deferred commissions", null, 20],
      ["USD", "Commission expense", 20, null],
      ["USD", "Commissions payable", null, 1200],
    ]);
  });

  it("capitalize_kinds decides which lines become assets, when their deal is approved", async () => {
    today(t, "2027-04-01");
    ok(
      await api.post("/spiffs", {
        name: "April",
        starts_on: "2027-04-01",
        ends_on: "2027-04-30",
        payout: { type: "flat", amount: 300 },
      }),
      201,
    );
    ok(await api.put("/settings/accounting", { capitalize_kinds: ["plan"] }));
    const planOnly = await approved(rep.id, 10000, "2027-04-10");
    expect((await assetsOf(planOnly.id)).map((a) => [a.kind, a.amount])).toEqual([["plan", 1000]]);
    ok(await api.put("/settings/accounting", {}));
    const both = await approved(rep.id, 10000, "2027-04-11");
    expect((await assetsOf(both.id)).map((a) => [a.kind, a.amount]).sort()).toEqual([
      ["plan", 1000],
      ["spiff", 300],
    ]);
  });

  it("a retroactive correction moves the asset of the line it corrects, from its month", async () => {
    today(t, "2027-05-01");
    const plan = await createPlan(api, {
      period: "month",
      tiers: null,
      quota: null,
      base_rate: 0.1,
      effective_from: "2025-01-01",
    });
    const user = await createUser(t);
    await assign(api, plan.id, user.id, { effective_from: "2025-01-01" });
    const deal = await approved(user.id, 12000, "2027-05-03");
    today(t, "2027-07-15");
    ok(await api.patch(`/comp-plans/${plan.id}`, { base_rate: 0.11, retroactive: true }));
    const [asset] = await assetsOf(deal.id);
    // 1,200.00 over 60: 20.00 a month; July takes +120.00: (1,160.00 + 120.00) / 58 = 22.07 a month from July.
    const july = asset!.schedule.find((m) => m.month === "2027-07")!;
    expect(july).toMatchObject({ adjustment: 120, amortization: 22.07, closing: 1257.93 });
    expect(asset!.schedule.find((m) => m.month === "2027-06")!.closing).toBe(1160);
  });

  it("assets of deals approved before accounting existed are built once, as their approval would have", async () => {
    const deal = await approved(rep.id, 24000, "2027-06-10");
    today(t, "2027-08-20");
    ok(await api.post(`/deals/${deal.id}/refunds`, { amount: 12000, effective_date: "2027-08-20" }), 201);
    const booked = await assetsOf(deal.id);
    await sql`DELETE FROM accounting_events WHERE line_id IN (SELECT line_id FROM accounting_assets WHERE deal_id = ${deal.id})`.execute(
      t.db.db,
    );
    await sql`DELETE FROM accounting_postings WHERE line_id IN (SELECT line_id FROM accounting_assets WHERE deal_id = ${deal.id})`.execute(
      t.db.db,
    );
    await sql`DELETE FROM accounting_assets WHERE deal_id = ${deal.id}`.execute(t.db.db);
    expect(await assetsOf(deal.id)).toEqual([]);
    await sql`UPDATE accounting_settings SET assets_built_at = NULL`.execute(t.db.db);
    const built = await t.db.db.transaction().execute((tx) => buildEarlierAssets(tx, new Date()));
    expect(built).toBe(1);
    expect(await assetsOf(deal.id)).toEqual(booked);
    expect(await t.db.db.transaction().execute((tx) => buildEarlierAssets(tx, new Date()))).toBe(0);
  });

  it("account names apply to every journal read, old months included", async () => {
    ok(await api.put("/settings/accounting", { accounts: { deferred_commissions: "1450 Deferred commissions" } }));
    const j = ok<{ data: { account: string }[] }>(await api.get("/accounting/journal?month=2027-03&currency=USD"));
    expect(j.data.map((r) => r.account)).toEqual([
      "1450 Deferred commissions",
      "Commissions payable",
      "Commission expense",
      "1450 Deferred commissions",
    ]);
    ok(await api.put("/settings/accounting", {}));
  });
});
