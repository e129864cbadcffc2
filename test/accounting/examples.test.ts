import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountingAsset, RollForward } from "../../src/accounting/index.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { today } from "../payout-runs/support.js";

/**
 * API.md §17's worked examples A1–A6 through the API, to the cent: a flat 10 % plan, so a deal of ARR
 * 10,000.00 makes a line of 1,000.00. Each example has a database of its own, since the roll-forward
 * sums every asset of a currency.
 */

interface JournalRow {
  date: string;
  account: string;
  debit: number | null;
  credit: number | null;
  memo: string;
  deal_id: string | null;
  line_id: string | null;
  currency: string;
}
interface Journal {
  data: JournalRow[];
  meta: { total: number; debit: number | null; credit: number | null; totals: unknown[] };
}

interface World {
  t: TestApp;
  api: Api;
  user: User;
}

async function world(settings: Record<string, unknown> = {}, clawback: unknown = null): Promise<World> {
  const t = await createTestApp({ clock: new TestClock() });
  const api = new Api(t);
  today(t, "2025-10-01");
  const plan = await createPlan(api, {
    name: "Flat 10 %",
    period: "month",
    tiers: null,
    quota: null,
    base_rate: 0.1,
    effective_from: "2025-01-01",
    clawback,
  });
  const user = await createUser(t);
  await assign(api, plan.id, user.id, { effective_from: "2025-01-01" });
  if (Object.keys(settings).length > 0) ok(await api.put("/settings/accounting", settings));
  return { t, api, user };
}

/** A deal of `arr` closed and approved on `approved`, with these contract dates. */
async function approvedDeal(w: World, arr: number, approved: string, contract?: [string, string]) {
  today(w.t, approved);
  const deal = await createDeal(w.api, w.user.id, {
    arr_amount: arr,
    close_date: approved,
    ...(contract && { contract_start: contract[0], contract_end: contract[1] }),
  });
  await approveAsOwner(w.t, deal.id);
  return deal;
}

async function assetOf(w: World, dealId: string): Promise<AccountingAsset> {
  const page = ok<{ data: AccountingAsset[] }>(await w.api.get(`/accounting/schedule?deal_id=${dealId}`));
  expect(page.data).toHaveLength(1);
  return page.data[0]!;
}

const amortization = (a: AccountingAsset) => a.schedule.map((m) => [m.month, m.amortization]);
const journal = async (w: World, query: string) => ok<Journal>(await w.api.get(`/accounting/journal?${query}`));
const rollForward = async (w: World, from: string, to: string) =>
  ok<RollForward>(await w.api.get(`/accounting/roll-forward?from=${from}&to=${to}`));
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b * 100, 0)) / 100;
/** Every month from `first`, `count` of them, as YYYY-MM. */
const months = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const [y, m] = first.split("-").map(Number) as [number, number];
    const index = y * 12 + m - 1 + i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
  });

describe("A1: 1,000.00 approved 2026-01-10, no contract dates → N 60", () => {
  let w: World;
  let asset: AccountingAsset;
  beforeAll(async () => {
    w = await world();
    const deal = await approvedDeal(w, 10000, "2026-01-10");
    asset = await assetOf(w, deal.id);
  });
  afterAll(() => w.t.close());

  it("16.67 × 59 = 983.53, 2030-12 16.47", () => {
    expect(asset).toMatchObject({ amount: 1000, treatment: "capitalized", months: 60, start_month: "2026-01" });
    expect(amortization(asset)).toEqual([...months("2026-01", 59).map((m) => [m, 16.67]), ["2030-12", 16.47]]);
    expect(sum(asset.schedule.slice(0, 59).map((m) => m.amortization))).toBe(983.53);
    expect(asset.schedule.at(-1)!.closing).toBe(0);
    expect(asset.schedule[0]).toMatchObject({ addition: 1000, closing: 983.33 });
  });

  it("January's journal: the addition on its day, the amortization on the month's last day, balanced", async () => {
    const j = await journal(w, "month=2026-01");
    const rows = j.data.map((r) => [r.date, r.account, r.debit, r.credit, r.line_id]);
    expect(rows).toEqual([
      ["2026-01-10", "Deferred commissions", 1000, null, asset.line_id],
      ["2026-01-10", "Commissions payable", null, 1000, asset.line_id],
      ["2026-01-31", "Commission expense", 16.67, null, asset.line_id],
      ["2026-01-31", "Deferred commissions", null, 16.67, asset.line_id],
    ]);
    expect(j.meta).toMatchObject({ total: 4, debit: 1016.67, credit: 1016.67 });
  });

  it("the CSV has every row under the §17 header, the unused side empty", async () => {
    const res = await w.api.get("/accounting/journal?month=2030-12", { accept: "text/csv" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("date,account,debit,credit,memo,deal_id,line_id,currency");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 4))).toEqual([
      ["2030-12-31", "Commission expense", "16.47", ""],
      ["2030-12-31", "Deferred commissions", "", "16.47"],
    ]);
  });
});

describe("A2: contract 2026-01-01 → 2029-01-01 (36 months)", () => {
  let w: World;
  let asset: AccountingAsset;
  beforeAll(async () => {
    w = await world({ renewal_commission_commensurate: true });
    const deal = await approvedDeal(w, 10000, "2026-01-10", ["2026-01-01", "2029-01-01"]);
    asset = await assetOf(w, deal.id);
  });
  afterAll(() => w.t.close());

  it("commensurate → N 36: 27.78 × 35 = 972.30, 2028-12 27.70", () => {
    expect(asset).toMatchObject({ months: 36, start_month: "2026-01", treatment: "capitalized" });
    expect(amortization(asset)).toEqual([...months("2026-01", 35).map((m) => [m, 27.78]), ["2028-12", 27.7]]);
  });

  it("roll-forward 2026-01…06: additions 1,000.00, amortization 166.68, closing 833.32, current 333.36, noncurrent 499.96", async () => {
    expect(await rollForward(w, "2026-01", "2026-06")).toEqual({
      from: "2026-01",
      to: "2026-06",
      data: [
        {
          currency: "USD",
          opening: 0,
          additions: 1000,
          adjustments: 0,
          amortization: 166.68,
          clawbacks: 0,
          impairment: 0,
          closing: 833.32,
          current: 333.36,
          noncurrent: 499.96,
        },
      ],
    });
  });

  it("not commensurate → N 60 for an asset made after the change (the earlier one is never restated)", async () => {
    ok(await w.api.put("/settings/accounting", { renewal_commission_commensurate: false }));
    const deal = await approvedDeal(w, 10000, "2026-02-10", ["2026-01-01", "2029-01-01"]);
    expect((await assetOf(w, deal.id)).months).toBe(60);
    const again = ok<{ data: AccountingAsset[] }>(await w.api.get(`/accounting/schedule?deal_id=${asset.deal_id}`));
    expect(again.data[0]!.months).toBe(36);
  });
});

describe("A3: a contract of 12 months, commensurate → expensed", () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ renewal_commission_commensurate: true });
    await approvedDeal(w, 10000, "2026-01-10", ["2026-01-01", "2027-01-01"]);
  });
  afterAll(() => w.t.close());

  it("2026-01 Dr Commission expense 1,000.00 / Cr Commissions payable 1,000.00; nothing on the asset", async () => {
    const j = await journal(w, "month=2026-01");
    expect(j.data.map((r) => [r.date, r.account, r.debit, r.credit])).toEqual([
      ["2026-01-10", "Commission expense", 1000, null],
      ["2026-01-10", "Commissions payable", null, 1000],
    ]);
    expect((await rollForward(w, "2026-01", "2026-12")).data).toEqual([]);
    const page = ok<{ data: AccountingAsset[] }>(await w.api.get("/accounting/schedule?month=2026-01"));
    expect(page.data.map((a) => [a.treatment, a.months, a.schedule.length, a.balance])).toEqual([
      ["expensed", 12, 0, 0],
    ]);
  });
});

describe("A4: A2 cancelled 2026-07-20 with a clawback of −500.00", () => {
  let w: World;
  let asset: AccountingAsset;
  beforeAll(async () => {
    w = await world({ renewal_commission_commensurate: true }, { window_days: 365, percent: 50, proration: "none" });
    const deal = await approvedDeal(w, 10000, "2026-01-10", ["2026-01-01", "2029-01-01"]);
    today(w.t, "2026-07-20");
    const cancelled = ok<{ clawback_summary: { amount: number }[] }>(
      await w.api.post(`/deals/${deal.id}/cancel`, { reason: "churned", effective_date: "2026-07-20" }),
    );
    expect(cancelled.clawback_summary.map((s) => s.amount)).toEqual([-500]);
    asset = await assetOf(w, deal.id);
  });
  afterAll(() => w.t.close());

  it("July: amortization 27.78, clawback 500.00, impairment 305.54, closing 0.00; nothing after", () => {
    expect(asset.schedule.at(-1)).toEqual({
      month: "2026-07",
      addition: 0,
      adjustment: 0,
      amortization: 27.78,
      clawback: 500,
      impairment: 305.54,
      closing: 0,
    });
    expect(asset.schedule).toHaveLength(7);
  });

  it("the journal: Dr Commission clawbacks receivable 500.00 / Cr Deferred commissions 500.00, the impairment dated the cancel", async () => {
    const j = await journal(w, "month=2026-07");
    expect(j.data.map((r) => [r.date, r.account, r.debit, r.credit])).toEqual([
      ["2026-07-31", "Commission expense", 27.78, null],
      ["2026-07-31", "Deferred commissions", null, 27.78],
      ["2026-07-20", "Commission clawbacks receivable", 500, null],
      ["2026-07-20", "Deferred commissions", null, 500],
      ["2026-07-20", "Commission expense", 305.54, null],
      ["2026-07-20", "Deferred commissions", null, 305.54],
    ]);
    expect([j.meta.debit, j.meta.credit]).toEqual([833.32, 833.32]);
  });

  it("roll-forward July: 833.32 − 27.78 − 500.00 − 305.54 = 0.00", async () => {
    expect((await rollForward(w, "2026-07", "2026-07")).data).toEqual([
      {
        currency: "USD",
        opening: 833.32,
        additions: 0,
        adjustments: 0,
        amortization: 27.78,
        clawbacks: 500,
        impairment: 305.54,
        closing: 0,
        current: 0,
        noncurrent: 0,
      },
    ]);
  });
});

describe("A5: A2 with +120.00 adjusted on 2027-01-05", () => {
  let w: World;
  let asset: AccountingAsset;
  beforeAll(async () => {
    w = await world({ renewal_commission_commensurate: true });
    const deal = await approvedDeal(w, 10000, "2026-01-10", ["2026-01-01", "2029-01-01"]);
    today(w.t, "2027-01-05");
    ok(
      await w.api.post("/commissions/adjustments", {
        deal_id: deal.id,
        user_id: w.user.id,
        amount: 120,
        reason: "SPIFF agreed late",
      }),
      201,
    );
    asset = await assetOf(w, deal.id);
  });
  afterAll(() => w.t.close());

  it("1,000.00 − 12 × 27.78 = 666.64 → 786.64 over 24: 32.78 × 23 = 753.94, 2028-12 32.70", () => {
    expect(asset.schedule.find((m) => m.month === "2026-12")!.closing).toBe(666.64);
    const january = asset.schedule.find((m) => m.month === "2027-01")!;
    expect(january).toMatchObject({ adjustment: 120, amortization: 32.78 });
    expect(amortization(asset).slice(12)).toEqual([...months("2027-01", 23).map((m) => [m, 32.78]), ["2028-12", 32.7]]);
    expect(sum(asset.schedule.slice(12, 35).map((m) => m.amortization))).toBe(753.94);
  });

  it("the adjustment's journal entry is dated its day: Dr Deferred commissions / Cr Commissions payable 120.00", async () => {
    const j = await journal(w, "month=2027-01");
    expect(j.data.map((r) => [r.date, r.account, r.debit, r.credit])).toEqual([
      ["2027-01-05", "Deferred commissions", 120, null],
      ["2027-01-05", "Commissions payable", null, 120],
      ["2027-01-31", "Commission expense", 32.78, null],
      ["2027-01-31", "Deferred commissions", null, 32.78],
    ]);
  });
});

describe("A6: 1.00 over 60, and the catch-up of a late approval", () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ renewal_commission_commensurate: true });
  });
  afterAll(() => w.t.close());

  it("0.02 × 59 = 1.18 > 1.00 → 0.01 × 59 = 0.59, last 0.41", async () => {
    const deal = await approvedDeal(w, 10, "2026-01-10");
    const asset = await assetOf(w, deal.id);
    expect(asset.amount).toBe(1);
    expect(amortization(asset)).toEqual([...months("2026-01", 59).map((m) => [m, 0.01]), ["2030-12", 0.41]]);
  });

  it("A2 starting 2025-11-01, approved 2026-01-10 → January takes 3 × 27.78 = 83.34", async () => {
    const deal = await approvedDeal(w, 10000, "2026-01-10", ["2025-11-01", "2028-11-01"]);
    const asset = await assetOf(w, deal.id);
    expect(asset).toMatchObject({ start_month: "2025-11", months: 36 });
    expect(asset.schedule[0]).toMatchObject({ month: "2026-01", addition: 1000, amortization: 83.34, closing: 916.66 });
    expect(asset.schedule.at(-1)).toMatchObject({ month: "2028-10", amortization: 27.7, closing: 0 });
  });
});
