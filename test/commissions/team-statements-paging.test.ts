import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTeamStatements, type TeamStatement, TeamStatementsQuery } from "../../src/commissions/index.js";
import { planPeriodOn } from "../../src/commissions/testing.js";
import type { User } from "../../src/users/index.js";
import { as } from "../access/world.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { countStatements } from "../statement-counter.js";

/**
 * GET /users/statements reads a page in three statements: the people with their count (a manager's
 * subtree read inside that statement), their lines' figures, and the plan versions with the people's
 * assignments. The people and count are GET /users' on every page, past the last one too, and follow the
 * reporting lines as they change; on a date, each person's period comes from their assignments.
 */

type Page<T> = { data: T[]; meta: { page: number; per_page: number; total: number } };

let t: TestApp;
let api: Api;
let boss: User;
let lead: User;
let leadReps: User[];
let otherManager: User;
let twoPlans: User;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock(Date.parse("2026-08-01T10:00:00.000Z")) });
  api = new Api(t, "admin");
  boss = await createUser(t, { role: "manager" });
  lead = await createUser(t, { role: "manager", manager_id: boss.id });
  leadReps = [];
  for (let i = 0; i < 4; i++) leadReps.push(await createUser(t, { role: "rep", manager_id: lead.id }));
  const direct = await createUser(t, { role: "rep", manager_id: boss.id });
  otherManager = await createUser(t, { role: "manager" });
  await createUser(t, { role: "rep", manager_id: otherManager.id });
  const quarterly = await createPlan(api, { name: "Quarterly" });
  for (const rep of [...leadReps, direct]) {
    await assign(api, quarterly.id, rep.id);
    await createDeal(api, rep.id, { arr_amount: 10000, close_date: "2026-07-15" });
  }
  // A manager on a yearly standard plan and a monthly override plan at once: the standard one decides.
  twoPlans = await createUser(t, { role: "manager", manager_id: boss.id });
  const monthlyOverride = ok<{ id: string }>(
    await api.post("/comp-plans", {
      name: "Monthly override",
      kind: "override",
      period: "month",
      effective_from: "2026-01-01",
      override_levels: [{ depth: 1, rate: 0.03 }],
    }),
    201,
  );
  await assign(api, monthlyOverride.id, twoPlans.id);
  const yearly = await createPlan(api, { name: "Yearly", period: "year", quota: 500000 });
  await assign(api, yearly.id, twoPlans.id);
  await createDeal(api, twoPlans.id, { arr_amount: 20000, close_date: "2026-03-10" });
});
afterAll(() => t.close());

async function sessionOf(user: User) {
  const s = await signedInAs(t, user);
  return async <T>(url: string) =>
    ok<Page<T>>(await t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: s.headers("GET") }));
}

describe("GET /users/statements, page by page", () => {
  it("every page of a manager's team is GET /users' page, past the last one too", async () => {
    const get = await sessionOf(boss);
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const team = await get<TeamStatement>(`/users/statements?period=2026-Q3&per_page=2&page=${page}`);
      const users = await get<User>(`/users?per_page=2&page=${page}`);
      expect(team.data.map((r) => r.user.id)).toEqual(users.data.map((u) => u.id));
      expect([team.meta, users.meta]).toEqual([
        { page, per_page: 2, total: 8 },
        { page, per_page: 2, total: 8 },
      ]);
      seen.push(...team.data.map((r) => r.user.id));
    }
    // Eight people on four pages (boss, lead, lead's four, the direct rep, twoPlans); the fifth is empty.
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    expect(seen).toContain(boss.id);
    const past = await get<TeamStatement>("/users/statements?period=2026-Q3&per_page=100&page=2");
    expect(past).toEqual({ data: [], meta: { page: 2, per_page: 100, total: 8 } });
    const filtered = await get<TeamStatement>("/users/statements?period=2026-Q3&role=rep&per_page=100&page=3");
    expect(filtered).toEqual({ data: [], meta: { page: 3, per_page: 100, total: 5 } });
  });

  it("on a date, a manager's standard plan decides their period over an override plan", async () => {
    const get = await sessionOf(boss);
    const page = await get<TeamStatement>("/users/statements?on=2026-08-01&per_page=100");
    const row = page.data.find((r) => r.user.id === twoPlans.id)!;
    expect([row.period, row.plans.map((p) => p.plan_name), row.deals]).toEqual(["2026", ["Yearly"], 1]);
    expect(page.data.find((r) => r.user.id === leadReps[0]!.id)!.period).toBe("2026-Q3");
    const periods = await get<{ period: string; current: boolean }>(`/users/${twoPlans.id}/periods`);
    expect(periods.data.filter((p) => p.current).map((p) => p.period)).toEqual(["2026"]);
  });

  it("reads a page in three statements (four on a date), a manager's as an admin's", async () => {
    const sent = async (user: User, query: Record<string, unknown>) => {
      const parsed = TeamStatementsQuery.parse({ per_page: 100, ...query });
      const { result, sent } = await countStatements(t.db.db, (db) =>
        listTeamStatements({ ...as(t, user), db }, parsed),
      );
      return [result.data.length, sent.sql.length];
    };
    const admin = await createUser(t, { role: "admin" });
    // The people with their count, their figures, the plan versions with their assignments.
    expect(await sent(boss, { period: "2026-Q3" })).toEqual([8, 3]);
    expect(await sent(leadReps[0]!, { period: "2026-Q3" })).toEqual([1, 3]);
    // On a date the assignments come first (each person's period), then one read of figures per period.
    expect(await sent(boss, { on: "2026-08-01" })).toEqual([8, 5]);
    expect(await sent(lead, { on: "2026-08-01" })).toEqual([5, 4]);
    const everyone = await sent(admin, { period: "2026-Q3" });
    expect(everyone[1]).toBe(3);
  });

  it("someone who left the team leaves its pages and its count, with their reports", async () => {
    const get = await sessionOf(boss);
    ok(await api.patch(`/users/${lead.id}`, { manager_id: otherManager.id }));
    const team = await get<TeamStatement>("/users/statements?period=2026-Q3&per_page=2&page=2");
    const users = await get<User>("/users?per_page=2&page=2");
    expect(team.data.map((r) => r.user.id)).toEqual(users.data.map((u) => u.id));
    expect([team.meta.total, users.meta.total]).toEqual([3, 3]);
    const all = await get<TeamStatement>("/users/statements?period=2026-Q3&per_page=100");
    const gone = new Set([lead.id, ...leadReps.map((u) => u.id)]);
    expect(all.data.filter((r) => gone.has(r.user.id))).toEqual([]);
    const theirs = await (await sessionOf(otherManager))<TeamStatement>(
      "/users/statements?period=2026-Q3&per_page=100",
    );
    expect(theirs.meta.total).toBe(7);
    expect(theirs.data.filter((r) => gone.has(r.user.id)).map((r) => r.totals.plan)).toEqual([
      1000, 1000, 1000, 1000, 0,
    ]);
  });
});

describe("planPeriodOn", () => {
  const span = (
    kind: "standard" | "override",
    period: "month" | "quarter" | "year",
    from: string,
    to: string | null,
  ) => ({
    kind,
    period,
    effective_from: from,
    effective_to: to,
    currency: "USD",
  });

  it("the standard plan in force on the date, else the override; the latest start first; both ends inclusive", () => {
    const override = span("override", "month", "2026-01-01", null);
    const standard = span("standard", "year", "2026-03-01", "2026-06-30");
    expect(planPeriodOn([override, standard], "2026-04-01")).toBe("year");
    expect(planPeriodOn([standard, override], "2026-04-01")).toBe("year");
    expect(planPeriodOn([override, standard], "2026-03-01")).toBe("year");
    expect(planPeriodOn([override, standard], "2026-06-30")).toBe("year");
    expect(planPeriodOn([override, standard], "2026-07-01")).toBe("month");
    expect(planPeriodOn([override, standard], "2025-12-31")).toBeUndefined();
    const later = span("standard", "quarter", "2026-05-01", null);
    expect(planPeriodOn([later, standard], "2026-05-15")).toBe("quarter");
    expect(planPeriodOn([standard, later], "2026-05-15")).toBe("quarter");
    expect(planPeriodOn([], "2026-05-15")).toBeUndefined();
  });
});
