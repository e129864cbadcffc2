import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draw } from "../../src/draws/index.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { cancelRun, createRun, finalizeRun, payeeOf, today } from "../payout-runs/support.js";

/**
 * API.md §18's worked examples D1–D3, to the cent: 2,000.00 monthly from 2026-01-01, a run through each
 * month's end holding that month's earnings E (a monthly plan paying 10 % of ARR).
 */

let t: TestApp;
let api: Api;
let plan: { id: string };

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  api = new Api(t);
  today(t, "2026-01-02");
  plan = await createPlan(api, { name: "Monthly 10 %", period: "month", tiers: null, quota: null, base_rate: 0.1 });
});
afterAll(() => t.close());

const MONTHS = ["01", "02", "03", "04", "05", "06"];
const lastDay = (m: string) => new Date(Date.UTC(2026, Number(m), 0)).toISOString().slice(0, 10);
const nextFirst = (m: string) => new Date(Date.UTC(2026, Number(m), 1)).toISOString().slice(0, 10);

async function person(): Promise<User> {
  const user = await createUser(t);
  await assign(api, plan.id, user.id);
  return user;
}

async function drawFor(user: User, kind: "recoverable" | "non_recoverable"): Promise<Draw> {
  today(t, "2026-01-02");
  return ok<Draw>(
    await api.post("/draws", {
      user_id: user.id,
      kind,
      amount: 2000,
      currency: "USD",
      period: "month",
      starts_on: "2026-01-01",
      ends_on: "2026-06-30",
    }),
    201,
  );
}

/** Month m: a deal earning `earned` approved on the 10th; a run through the month's end, finalized. */
async function month(user: User, m: string, earned: number, finalize = true) {
  if (earned > 0) {
    today(t, `2026-${m}-10`);
    const deal = await createDeal(api, user.id, { arr_amount: earned * 10, close_date: `2026-${m}-10` });
    await approveAsOwner(t, deal.id);
  }
  today(t, nextFirst(m));
  const run = await createRun(api, { through: lastDay(m), pay_date: nextFirst(m), user_ids: [user.id] });
  return finalize ? finalizeRun(api, run.id) : run;
}

const drawLinesOf = async (runId: string) =>
  ok<{ lines: { data: { kind: string; amount: number; draw_id: string | null; deal_id: string | null }[] } }>(
    await api.get(`/payout-runs/${runId}?kind=draw`),
  ).lines.data.map((l) => l.amount);

describe("D1 recoverable: E 2,750 / 3,000 / 1,500 / 2,375 / 3,000 / 2,750", () => {
  const E = [2750, 3000, 1500, 2375, 3000, 2750];
  let user: User;
  let draw: Draw;
  const paid: number[] = [];
  const draws: number[][] = [];
  const balances: number[] = [];
  const runIds: string[] = [];

  beforeAll(async () => {
    user = await person();
    draw = await drawFor(user, "recoverable");
    for (const [i, m] of MONTHS.entries()) {
      const run = await month(user, m, E[i]!);
      runIds.push(run.id);
      paid.push(payeeOf(run, user.id).net_pay);
      draws.push(await drawLinesOf(run.id));
      balances.push(ok<Draw>(await api.get(`/draws/${draw.id}`)).balance);
    }
  });

  it("draw lines — / — / +500.00 / −375.00 / −125.00 / —; paid 2,750 / 3,000 / 2,000 / 2,000 / 2,875 / 2,750", () => {
    expect(draws).toEqual([[], [], [500], [-375], [-125], []]);
    expect(paid).toEqual([2750, 3000, 2000, 2000, 2875, 2750]);
    expect(balances).toEqual([0, 0, 500, 125, 0, 0]);
    expect(paid.reduce((a, b) => a + b, 0)).toBe(15375);
  });

  it("April's generic export row: plan 2375.00, draw_recovery -375.00, net_pay 2000.00", async () => {
    const res = await api.get(`/payout-runs/${runIds[3]}/export`);
    expect(res.statusCode).toBe(200);
    const row = res.body.split("\r\n").find((r) => r.includes(user.email))!;
    expect(row.split(",").slice(9)).toEqual([
      "2375.00",
      "0.00",
      "0.00",
      "0.00",
      "0.00",
      "0.00",
      "-375.00",
      "0.00",
      "0.00",
      "2000.00",
    ]);
  });

  it("March's statement holds the advance in draw_lines and totals.draw; GET /commissions lists it only with kind=draw", async () => {
    const statement = ok<{
      lines: { kind: string }[];
      draw_lines: { kind: string; amount: number; draw_id: string; deal_id: null; deal: null; explanation: unknown }[];
      totals: Record<string, number>;
    }>(await api.get(`/users/${user.id}/statement?period=2026-03`));
    expect(statement.lines.map((l) => l.kind)).toEqual(["plan"]);
    expect(statement.draw_lines.map((l) => [l.kind, l.amount, l.draw_id, l.deal_id, l.deal])).toEqual([
      ["draw", 500, draw.id, null, null],
    ]);
    expect(statement.draw_lines[0]!.explanation).toEqual({
      summary: expect.any(String),
      draw_id: draw.id,
      period: "2026-03",
      amount: "2000.00",
      earned: "1500.00",
      advance: "500.00",
      balance_before: "0.00",
      balance_after: "500.00",
    });
    expect([statement.totals.plan, statement.totals.draw, statement.totals.total]).toEqual([1500, 500, 2000]);
    const april = ok<{ draw_lines: { explanation: unknown }[] }>(
      await api.get(`/users/${user.id}/statement?period=2026-04`),
    );
    expect(april.draw_lines[0]!.explanation).toMatchObject({
      earned: "2375.00",
      recovery: "375.00",
      balance_before: "500.00",
      balance_after: "125.00",
    });
    const plain = ok<{ data: { kind: string }[] }>(await api.get(`/commissions?user_id=${user.id}&per_page=100`));
    expect(plain.data.map((l) => l.kind)).not.toContain("draw");
    const drawn = ok<{ data: { amount: number }[] }>(await api.get(`/commissions?user_id=${user.id}&kind=draw`));
    expect(drawn.data.map((l) => l.amount).sort()).toEqual([-375, -125, 500].sort());
    const csv = await api.get(`/commissions.csv?user_id=${user.id}&kind=draw`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split("\r\n").filter((r) => r.includes(",draw,"))).toHaveLength(3);
  });

  it("the draw shows each period's E and advance, and its entries", async () => {
    const got = ok<Draw>(await api.get(`/draws/${draw.id}`));
    expect(got.periods.map((p) => [p.period, p.earned, p.advance, p.payout_run_id])).toEqual(
      MONTHS.map((m, i) => [`2026-${m}`, E[i], Math.max(0, 2000 - E[i]!), runIds[i]]),
    );
    expect(got.entries.map((e) => [e.type, e.amount, e.payout_run_id])).toEqual([
      ["advance", 500, runIds[2]],
      ["recovery", -375, runIds[3]],
      ["recovery", -125, runIds[4]],
    ]);
    expect(got.status).toBe("ended");
  });
});

describe("D2 non_recoverable", () => {
  it("April pays 2,375.00, May 3,000.00; Σ 15,875.00 (March's 500.00 kept); the balance stays 0", async () => {
    const user = await person();
    const draw = await drawFor(user, "non_recoverable");
    const E = [2750, 3000, 1500, 2375, 3000, 2750];
    const paid: number[] = [];
    for (const [i, m] of MONTHS.entries()) {
      paid.push(payeeOf(await month(user, m, E[i]!), user.id).net_pay);
      expect(ok<Draw>(await api.get(`/draws/${draw.id}`)).balance).toBe(0);
    }
    expect(paid).toEqual([2750, 3000, 2000, 2375, 3000, 2750]);
    expect(paid.reduce((a, b) => a + b, 0)).toBe(15875);
  });
});

describe("D3: D1 ended 2026-03-31 with a balance of 500.00", () => {
  async function endedInMarch() {
    const user = await person();
    const draw = await drawFor(user, "recoverable");
    for (const [i, m] of ["01", "02", "03"].entries()) await month(user, m, [2750, 3000, 1500][i]!);
    today(t, "2026-04-01");
    const ended = ok<Draw>(await api.post(`/draws/${draw.id}/end`, { effective_date: "2026-03-31" }));
    expect([ended.ends_on, ended.balance]).toEqual(["2026-03-31", 500]);
    return { user, draw };
  }

  it("April lines 300.00 → −300.00, net 0.00, balance 200.00; May 1,000.00 → −200.00, net 800.00", async () => {
    const { user, draw } = await endedInMarch();
    const april = await month(user, "04", 300);
    expect(await drawLinesOf(april.id)).toEqual([-300]);
    expect(payeeOf(april, user.id).net_pay).toBe(0);
    expect(ok<Draw>(await api.get(`/draws/${draw.id}`)).balance).toBe(200);
    expect(ok(await api.get(`/users/${user.id}/payout-balances`))).toEqual([
      { currency: "USD", deficit: 0, draws: [{ draw_id: draw.id, balance: 200 }] },
    ]);
    const may = await month(user, "05", 1000);
    expect(await drawLinesOf(may.id)).toEqual([-200]);
    expect(payeeOf(may, user.id).net_pay).toBe(800);
    expect(ok<Draw>(await api.get(`/draws/${draw.id}`)).balance).toBe(0);
    expect(ok(await api.get(`/users/${user.id}/payout-balances`))).toEqual([
      { currency: "USD", deficit: 0, draws: [] },
    ]);
  });

  it("had 200.00 been forgiven, May nets 1,000.00; a forgiveness above the balance → 422", async () => {
    const { user, draw } = await endedInMarch();
    await month(user, "04", 300);
    const above = await api.post(`/draws/${draw.id}/forgive`, { amount: 200.01, reason: "Goodwill" });
    expect([above.statusCode, errorOf(above).details?.[0]?.param]).toEqual([422, "amount"]);
    const forgiven = ok<Draw>(await api.post(`/draws/${draw.id}/forgive`, { reason: "Goodwill" }));
    expect(forgiven.balance).toBe(0);
    expect(forgiven.entries.at(-1)).toMatchObject({
      type: "forgiveness",
      amount: -200,
      line_id: null,
      reason: "Goodwill",
    });
    const may = await month(user, "05", 1000);
    expect(await drawLinesOf(may.id)).toEqual([]);
    expect(payeeOf(may, user.id).net_pay).toBe(1000);
  });

  it("ending before a settled period's end → 409 conflict", async () => {
    const { draw } = await endedInMarch();
    const res = await api.post(`/draws/${draw.id}/end`, { effective_date: "2026-02-27" });
    expect([res.statusCode, errorOf(res).code]).toEqual([409, "conflict"]);
  });
});

describe("cancel and finalize", () => {
  it("a cancelled run voids its draw lines and unsettles its periods; the next run settles them again", async () => {
    const user = await person();
    const draw = await drawFor(user, "recoverable");
    const draft = await month(user, "01", 500, false);
    expect(await drawLinesOf(draft.id)).toEqual([1500]);
    expect(ok<Draw>(await api.get(`/draws/${draw.id}`)).balance).toBe(1500);
    await cancelRun(api, draft.id);
    const after = ok<Draw>(await api.get(`/draws/${draw.id}`));
    expect([after.balance, after.entries, after.periods[0]!.payout_run_id]).toEqual([0, [], null]);
    const run = await finalizeRun(
      api,
      (await createRun(api, { through: "2026-01-31", pay_date: "2026-02-01", user_ids: [user.id] })).id,
    );
    expect(await drawLinesOf(run.id)).toEqual([1500]);
    expect(payeeOf(run, user.id).net_pay).toBe(2000);
    expect(payeeOf(run, user.id).gross.draw_advance).toBe(1500);
  });
});
