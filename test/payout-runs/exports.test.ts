import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutRunDetail } from "../../src/payout-runs/index.js";
import { ADP_HEADER, GENERIC_HEADER, GUSTO_HEADER } from "../../src/payout-runs/testing.js";
import { createUser, errorOf } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { createRun, finalizeRun } from "./support.js";

/** GET /payout-runs/{id}/export (API.md §13): the three formats, their parameters and refusals. */

let t: TestApp;
let api: Api;
let people: Record<"ana" | "ben" | "cy" | "dee", { id: string }>;
let gustoRun: PayoutRunDetail;
let twoCurrencies: PayoutRunDetail;
let draft: PayoutRunDetail;

/** A person on a 10 % plan (in `currency`), with a SPIFF of `spiff` only for them, and a closed deal of `arr`. */
async function earner(
  name: string,
  arr: number,
  spiff: number,
  extra: { payroll_id?: string; currency?: string; clawback?: Record<string, unknown> } = {},
) {
  const { currency = "USD", payroll_id, clawback } = extra;
  const user = await createUser(t, { name, email: `${name.split(" ")[0]!.toLowerCase()}@example.com`, payroll_id });
  const plan = await createPlan(api, { currency, tiers: null, quota: null, base_rate: 0.1, clawback });
  await assign(api, plan.id, user.id);
  if (spiff > 0) {
    const criteria = { user_ids: [user.id] };
    const body = { name: `${name} bonus`, currency, starts_on: "2026-10-01", ends_on: "2026-10-31", criteria };
    ok(await api.post("/spiffs", { ...body, payout: { type: "flat", amount: spiff } }), 201);
  }
  const deal = await createDeal(api, user.id, { arr_amount: arr, currency, close_date: "2026-10-05" });
  await approveAsOwner(t, deal.id);
  return { id: user.id, dealId: deal.id };
}

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  const clawback = { window_days: 365, percent: 100, proration: "none" };
  const ana = await earner("Ana Lopez", 20000, 500, { payroll_id: "5G9934", clawback });
  const ben = await earner("Ben Okafor", 10000, 250);
  // Ana's clawback of −2,200.00: a September deal (a plan line of 2,200.00, paid then) cancelled in full.
  const september = await createDeal(api, ana.id, { arr_amount: 22000, close_date: "2026-09-05" });
  await approveAsOwner(t, september.id, "paid");
  ok(await api.post(`/deals/${september.id}/cancel`, { reason: "Churned", effective_date: "2026-11-20" }));
  const cy = await earner("Cy Park", 10000, 200, { payroll_id: "C1" });
  const dee = await earner("Dee Roy", 5000, 0, { payroll_id: "D1", currency: "EUR" });
  people = { ana, ben, cy, dee };
  const dates = { through: "2026-11-22", pay_date: "2026-11-30" };
  gustoRun = await finalizeRun(api, (await createRun(api, { ...dates, user_ids: [ana.id, ben.id] })).id);
  twoCurrencies = await finalizeRun(api, (await createRun(api, { ...dates, user_ids: [cy.id, dee.id] })).id);
  draft = await createRun(api, { ...dates, user_ids: [ana.id] });
});
afterAll(() => t.close());

const exported = (run: { id: string }, query = "") => api.get(`/payout-runs/${run.id}/export${query}`);

describe("gusto", () => {
  it("Ana Lopez (5G9934) and Ben Okafor (no payroll_id): the contract's rows, no BOM", async () => {
    const res = await exported(gustoRun, "?format=gusto");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(
      `${GUSTO_HEADER.join(",")}\r\nAna,Lopez,5G9934,0.00,300.00\r\nBen,Okafor,,1000.00,250.00\r\n`,
    );
  });

  it("two currencies: `currency` is required (422), and picks the payees it names", async () => {
    const res = await exported(twoCurrencies, "?format=gusto");
    expect([res.statusCode, errorOf(res).details?.[0]?.param]).toEqual([422, "currency"]);
    expect(errorOf(res).message).toContain("EUR, USD");
    const eur = await exported(twoCurrencies, "?format=gusto&currency=EUR");
    expect(eur.body).toBe(`${GUSTO_HEADER.join(",")}\r\nDee,Roy,D1,500.00,0.00\r\n`);
  });
});

describe("adp", () => {
  it("a payee without payroll_id → 422 naming them; the copy taken at finalize decides", async () => {
    const res = await exported(gustoRun, "?format=adp&co_code=K7Q&batch_id=NOV26");
    expect([res.statusCode, errorOf(res).code]).toEqual([422, "validation_error"]);
    expect(errorOf(res).details).toEqual([
      { param: "payroll_id", message: `${people.ben.id} (Ben Okafor) has no payroll_id` },
    ]);
  });

  it("bonus_earnings_code: the SPIFF part on its own row; file PR{co_code}EPI.csv; one currency", async () => {
    const query = "?format=adp&co_code=K7Q&batch_id=NOV26&currency=USD&earnings_code=CM&bonus_earnings_code=B";
    const res = await exported(twoCurrencies, query);
    expect([res.statusCode, res.headers["content-disposition"]]).toEqual([200, 'attachment; filename="PRK7QEPI.csv"']);
    expect(res.body).toBe(`${ADP_HEADER.join(",")}\r\nK7Q,NOV26,C1,CM,1000.00\r\nK7Q,NOV26,C1,B,200.00\r\n`);
  });

  it("co_code and batch_id are required; their shapes are checked", async () => {
    const missing = await exported(twoCurrencies, "?format=adp&currency=USD");
    expect(
      errorOf(missing)
        .details?.map((d) => d.param)
        .sort(),
    ).toEqual(["batch_id", "co_code"]);
    const bad = await exported(twoCurrencies, "?format=adp&currency=USD&co_code=K&batch_id=123456789");
    expect(
      errorOf(bad)
        .details?.map((d) => d.param)
        .sort(),
    ).toEqual(["batch_id", "co_code"]);
  });
});

describe("generic and the refusals every format shares", () => {
  it("CSV whatever Accept says; parses with csv-parse: the documented columns in order, a row per payee by name", async () => {
    const res = await api.get(`/payout-runs/${twoCurrencies.id}/export`, { accept: "application/json" });
    expect([res.statusCode, res.headers["content-type"], res.body.startsWith("\uFEFF")]).toEqual([
      200,
      "text/csv; charset=utf-8",
      true,
    ]);
    const rows = parse(res.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(GENERIC_HEADER);
    expect(rows.map((r) => [r.name, r.payroll_id, r.currency, r.plan, r.spiff, r.net_pay])).toEqual([
      ["Cy Park", "C1", "USD", "1000.00", "200.00", "1200.00"],
      ["Dee Roy", "D1", "EUR", "500.00", "0.00", "500.00"],
    ]);
  });

  it("a draft or cancelled run → 409 invalid_transition: only finalized runs export", async () => {
    const res = await exported(draft);
    expect([res.statusCode, errorOf(res).code]).toEqual([409, "invalid_transition"]);
    expect(errorOf(res).message).toContain("only finalized runs export");
    ok(await api.post(`/payout-runs/${draft.id}/cancel`));
    expect((await exported(draft, "?format=gusto")).statusCode).toBe(409);
  });

  it.each([
    ["format=generic&co_code=K7Q", "co_code"],
    ["format=generic&currency=USD", "currency"],
    ["format=gusto&batch_id=NOV26", "batch_id"],
    ["format=gusto&earnings_code=C", "earnings_code"],
    ["format=pdf", "format"],
  ])("%s → 422 naming %s", async (query, param) => {
    const res = await exported(twoCurrencies, `?${query}`);
    expect([res.statusCode, errorOf(res).details?.map((d) => d.param)]).toEqual([422, [param]]);
  });
});
