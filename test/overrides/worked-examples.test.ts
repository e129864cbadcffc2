import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, getDeal, ok, rejectAsOwner } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

/**
 * API.md §16's worked examples through the HTTP API, to the cent: V → M → R1, R2; M's override plan pays
 * 3 % at depth 1; V's pays 2 % at depth 1 and 1 % at depth 2. Each case builds its own organisation.
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const FROM = "2026-01-01";

async function overridePlan(levels: { depth: number; rate: number }[]) {
  return ok<{ id: string }>(
    await api.post("/comp-plans", {
      name: `Override ${levels.map((l) => l.rate).join("/")} ${Math.random()}`,
      kind: "override",
      period: "quarter",
      effective_from: FROM,
      override_levels: levels,
    }),
    201,
  );
}

async function report(name: string, manager: User | null, role: "rep" | "manager" = "rep"): Promise<User> {
  const user = await createUser(t, { name, role });
  if (manager)
    ok(await api.patch(`/users/${user.id}`, { manager_id: manager.id, manager_effective_from: "2026-01-01" }));
  return user;
}

interface Org {
  v: User;
  m: User;
  r1: User;
  r2: User;
  mPlan: string;
}

async function organisation(): Promise<Org> {
  const v = await report("V", null, "manager");
  const m = await report("M", v, "manager");
  const r1 = await report("R1", m);
  const r2 = await report("R2", m);
  const mPlan = (await overridePlan([{ depth: 1, rate: 0.03 }])).id;
  const vPlan = (
    await overridePlan([
      { depth: 1, rate: 0.02 },
      { depth: 2, rate: 0.01 },
    ])
  ).id;
  await assign(api, mPlan, m.id);
  await assign(api, vPlan, v.id);
  return { v, m, r1, r2, mPlan };
}

type Line = { kind: string; user_id: string; amount: number; status: string; explanation: Record<string, unknown> };
const overrides = (deal: { commissions: Line[] }) =>
  Object.fromEntries(deal.commissions.filter((l) => l.kind === "override").map((l) => [l.user_id, l.amount]));

const splitDeal = (_o: Org, close_date: string, arr: number, splits: [User, number][]) =>
  createDeal(api, splits[0]![0].id, {
    arr_amount: arr,
    close_date,
    splits: splits.map(([u, percent]) => ({ user_id: u.id, percent })),
  });

describe("override lines (API.md §16 worked examples)", () => {
  it("O1: R1 alone pays M 1,200.00 and V 400.00; a 60/40 split pays M 300.00 and V 100.00", async () => {
    const o = await organisation();
    const alone = await splitDeal(o, "2026-02-10", 40000, [[o.r1, 100]]);
    expect(overrides(alone)).toEqual({ [o.m.id]: 1200, [o.v.id]: 400 });
    expect(alone.total_commission).toBe(1600);
    const split = await splitDeal(o, "2026-02-11", 10000, [
      [o.r1, 60],
      [o.r2, 40],
    ]);
    expect(overrides(split)).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    const m = split.commissions.find((l) => l.kind === "override" && l.user_id === o.m.id)!;
    expect(m).toMatchObject({ plan_id: o.mPlan, plan_version: 1, period: "2026-Q1", status: "pending" });
    expect(m.explanation).toEqual({
      summary: "override: depth 1: 10,000.00 × 3% = 300.00",
      plan_id: o.mPlan,
      plan_version: 1,
      period: "2026-Q1",
      levels: [
        {
          depth: 1,
          rate: "0.03",
          users: [
            { user_id: [o.r1.id, o.r2.id].sort()[0], credit: o.r1.id < o.r2.id ? "6000" : "4000" },
            { user_id: [o.r1.id, o.r2.id].sort()[1], credit: o.r1.id < o.r2.id ? "4000" : "6000" },
          ],
          credit: "10000",
          commission: "300",
        },
      ],
      fx: null,
      unrounded: "300",
      amount: 300,
    });
  });

  it("O2: M 40 / R1 60 pays M 180.00 (never on M's own credit) and V 140.00", async () => {
    const o = await organisation();
    const deal = await splitDeal(o, "2026-02-10", 10000, [
      [o.m, 40],
      [o.r1, 60],
    ]);
    expect(overrides(deal)).toEqual({ [o.m.id]: 180, [o.v.id]: 140 });
  });

  it("O3: R1 50 / R2 50: M's depth-1 credit counts once, 300.00", async () => {
    const o = await organisation();
    const deal = await splitDeal(o, "2026-02-10", 10000, [
      [o.r1, 50],
      [o.r2, 50],
    ]);
    expect(overrides(deal)[o.m.id]).toBe(300);
  });

  it("O4: R1 moves under M2 from 2026-04-01: 03-31 pays M (and V at depth 2), 04-01 pays M2", async () => {
    const o = await organisation();
    const m2 = await report("M2", null);
    await assign(api, o.mPlan, m2.id);
    const before = await splitDeal(o, "2026-03-31", 10000, [[o.r1, 100]]);
    const after = await splitDeal(o, "2026-04-01", 10000, [[o.r1, 100]]);
    // Both deals are booked before the move: both pay M and V.
    expect(overrides(before)).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    expect(overrides(after)).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    // The impact shows the move's effect first, writing nothing (§12's answer, for override lines).
    const impact = ok<{
      summary: Record<string, number>;
      lines: { data: { deal_id: string; user_id: string; before: number; after: number; delta: number }[] };
      lines_after: unknown[];
    }>(
      await api.post(`/users/${o.r1.id}/reporting-lines/impact`, {
        manager_id: m2.id,
        manager_effective_from: "2026-04-01",
      }),
    );
    expect(impact.summary).toEqual({ users: 3, deals: 1, lines: 3, pending_delta: -100, locked_delta: 0 });
    const moves = impact.lines.data.map((l) => [l.deal_id, l.user_id, l.before, l.after, l.delta]);
    expect(moves.sort()).toEqual(
      [
        [after.id, o.m.id, 300, 0, -300],
        [after.id, o.v.id, 100, 0, -100],
        [after.id, m2.id, 0, 300, 300],
      ].sort(),
    );
    expect(impact.lines_after).toEqual([
      { manager_id: o.m.id, effective_from: "2026-01-01", effective_to: "2026-03-31" },
      { manager_id: m2.id, effective_from: "2026-04-01", effective_to: null },
    ]);
    expect(overrides(await getDeal(api, after.id))).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    // The backdated move recalculates the pending override lines of the deal on its date only.
    ok(await api.patch(`/users/${o.r1.id}`, { manager_id: m2.id, manager_effective_from: "2026-04-01" }));
    expect(overrides(await getDeal(api, before.id))).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    expect(overrides(await getDeal(api, after.id))).toEqual({ [m2.id]: 300 });
    expect((await getDeal(api, after.id)).total_commission).toBe(300);
  });

  it("O4 (locked): an approved deal's override lines never move with a later backdated move", async () => {
    const o = await organisation();
    const m2 = await report("M2", null);
    await assign(api, o.mPlan, m2.id);
    const deal = await splitDeal(o, "2026-05-05", 10000, [[o.r1, 100]]);
    await approveAsOwner(t, deal.id);
    ok(await api.patch(`/users/${o.r1.id}`, { manager_id: m2.id, manager_effective_from: "2026-04-01" }));
    const after = await getDeal(api, deal.id);
    expect(overrides(after)).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
    expect(after.commissions.filter((l) => l.kind === "override").map((l) => l.status)).toEqual([
      "approved",
      "approved",
    ]);
  });

  it("O5: a credited user with no manager on close_date earns nobody an override", async () => {
    const o = await organisation();
    const deal = await splitDeal(o, "2026-02-10", 10000, [[o.v, 100]]);
    expect(overrides(deal)).toEqual({});
  });

  it("a rejected deal voids its override lines; an override plan's assignment ending removes pending ones", async () => {
    const o = await organisation();
    const deal = await splitDeal(o, "2026-02-10", 10000, [[o.r1, 100]]);
    await rejectAsOwner(t, deal.id);
    const rejected = await getDeal(api, deal.id);
    expect(rejected.commissions.filter((l) => l.kind === "override").map((l) => l.status)).toEqual(["void", "void"]);
    const other = await splitDeal(o, "2026-02-10", 10000, [[o.r1, 100]]);
    expect(overrides(other)).toEqual({ [o.m.id]: 300, [o.v.id]: 100 });
  });

  it("the deal's reps never see their managers' override lines; the manager and those above do", async () => {
    const o = await organisation();
    const deal = await splitDeal(o, "2026-02-10", 10000, [[o.r1, 100]]);
    const asUser = async (user: User) => {
      const session = await signedInAs(t, user);
      const res = await t.app.inject({ method: "GET", url: `/api/v1/deals/${deal.id}`, headers: session.headers() });
      return ok<{ commissions: Line[] }>(res).commissions.map((l) => `${l.kind}:${l.user_id}`);
    };
    expect(await asUser(o.r1)).toEqual([]);
    expect((await asUser(o.m)).filter((k) => k.startsWith("override"))).toEqual([`override:${o.m.id}`]);
    expect((await asUser(o.v)).filter((k) => k.startsWith("override")).sort()).toEqual(
      [`override:${o.m.id}`, `override:${o.v.id}`].sort(),
    );
  });
});
