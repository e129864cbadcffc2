import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listTeamStatements,
  type Statement,
  type TeamStatement,
  TeamStatementsQuery,
} from "../../src/commissions/index.js";
import type { User } from "../../src/users/index.js";
import { as, buildWorld, type World } from "../access/world.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { countStatements } from "../statement-counter.js";

/**
 * GET /users/statements (issue #28 "Team in one request"): the people GET /users shows, each with the
 * numbers GET /users/{id}/statement gives, a page at a time, in a fixed number of reads.
 */

let t: TestApp;
let w: World;
let yearly: User;
let monthly: User;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  w = await buildWorld(t);
  const api = new Api(t, "admin");
  // A monthly rep under the manager, a yearly rep under lead, cents and an adjustment.
  const month = await createPlan(api, {
    name: "Monthly",
    period: "month",
    tiers: null,
    quota: null,
    base_rate: 0.0333,
  });
  monthly = ok<User>(
    await api.post("/users", { name: "Mo Monthly", email: "mo@example.test", manager_id: w.users.manager.id }),
    201,
  );
  await assign(api, month.id, monthly.id);
  await createDeal(api, monthly.id, { arr_amount: 12345.67, close_date: "2026-07-03" });
  await createDeal(api, w.users.repA.id, { arr_amount: 12345.67, close_date: "2026-08-03" });
  const year = await createPlan(api, { name: "Yearly", period: "year", quota: 500000 });
  yearly = ok<User>(
    await api.post("/users", { name: "Yara Yearly", email: "yara@example.test", manager_id: w.users.lead.id }),
    201,
  );
  await assign(api, year.id, yearly.id);
  await createDeal(api, yearly.id, { arr_amount: 77777.77, close_date: "2026-03-31" });
  await createDeal(api, yearly.id, { arr_amount: 1000.01, close_date: "2026-09-30" });
  ok(
    await api.post("/commissions/adjustments", {
      deal_id: w.deals.approvedA.id,
      user_id: w.users.repA.id,
      amount: -12.34,
      period: "2026-Q3",
      reason: "correction",
    }),
    201,
  );
});
afterAll(() => t.close());

const numbers = (s: Statement | TeamStatement) => ({
  period: s.period,
  plans: s.plans,
  totals: s.totals,
  by_status: s.by_status,
});

async function sessionOf(user: User) {
  const s = await signedInAs(t, user);
  return (url: string) => t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: s.headers("GET") });
}

describe("GET /users/statements", () => {
  for (const period of ["2026-Q3", "2026", "2026-07"]) {
    it(`holds every visible person's statement numbers, to the cent (${period})`, async () => {
      for (const who of ["repA", "manager", "lead", "finance", "admin"] as const) {
        const get = await sessionOf(w.users[who]);
        const page = ok<{ data: TeamStatement[]; meta: { total: number } }>(
          await get(`/users/statements?period=${period}&per_page=100`),
        );
        const people = ok<{ data: User[]; meta: { total: number } }>(await get("/users?per_page=100"));
        expect(
          page.data.map((r) => r.user.id),
          who,
        ).toEqual(people.data.map((u) => u.id));
        expect(page.meta.total).toBe(people.meta.total);
        for (const row of page.data) {
          const person = people.data.find((u) => u.id === row.user.id)!;
          expect(row.user).toEqual({
            id: person.id,
            name: person.name,
            role: person.role,
            manager_id: person.manager_id,
            active: person.active,
          });
          const statement = ok<Statement>(await get(`/users/${row.user.id}/statement?period=${period}`));
          expect(numbers(row), `${who} → ${person.name}`).toEqual(numbers(statement));
        }
      }
    });
  }

  it("shows the numbers that matter: cents, an adjustment, a monthly and a yearly plan", async () => {
    const get = await sessionOf(w.users.manager);
    const quarter = ok<{ data: TeamStatement[] }>(await get("/users/statements?period=2026-Q3")).data;
    const repA = quarter.find((r) => r.user.id === w.users.repA.id)!;
    expect(repA.plans.map((p) => p.plan_name)).toEqual(["Plan A"]);
    expect(repA.totals.adjustment).toBe(-12.34);
    const july = ok<{ data: TeamStatement[] }>(await get("/users/statements?period=2026-07")).data;
    const mo = july.find((r) => r.user.id === monthly.id)!;
    expect(mo.plans.map((p) => [p.plan_name, p.period_kind, p.attainment])).toEqual([["Monthly", "month", 12345.67]]);
    expect(mo.totals.plan).toBe(411.11);
    const year = ok<{ data: TeamStatement[] }>(await get("/users/statements?period=2026")).data;
    const yara = year.find((r) => r.user.id === yearly.id)!;
    expect(yara.plans.map((p) => [p.plan_name, p.period_kind, p.attainment])).toEqual([["Yearly", "year", 78777.78]]);
    expect(yara.totals.total).toBeGreaterThan(0);
  });

  it("a rep sees only themself; a manager their subtree; finance everyone", async () => {
    const ids = async (user: User) =>
      ok<{ data: TeamStatement[] }>(await (await sessionOf(user))("/users/statements?period=2026-Q3&per_page=100"))
        .data.map((r) => r.user.id)
        .sort();
    expect(await ids(w.users.repB)).toEqual([w.users.repB.id]);
    expect(await ids(w.users.manager)).toEqual(
      [w.users.manager.id, w.users.lead.id, w.users.repA.id, yearly.id, monthly.id].sort(),
    );
    expect((await ids(w.users.finance)).length).toBe(10);
  });

  it("pages with meta.total and a Link header; takes GET /users' filters", async () => {
    const get = await sessionOf(w.users.admin);
    const res = await get("/users/statements?period=2026-Q3&per_page=2&page=2");
    const page = ok<{ data: TeamStatement[]; meta: { page: number; per_page: number; total: number } }>(res);
    expect(page.meta).toEqual({ page: 2, per_page: 2, total: 10 });
    expect(page.data).toHaveLength(2);
    expect(res.headers.link).toContain('rel="next"');
    expect(res.headers.link).toContain("period=2026-Q3");
    const reps = ok<{ data: TeamStatement[] }>(await get("/users/statements?period=2026-Q3&role=rep&per_page=100"));
    expect(reps.data.every((r) => r.user.role === "rep")).toBe(true);
    expect(reps.data).toHaveLength(4);
  });

  it("refuses a malformed period (422)", async () => {
    const get = await sessionOf(w.users.admin);
    for (const query of ["?period=2026-13", "?period=2026-Q3&per_page=101", "?period=2026-Q3&sort=name"]) {
      const res = await get(`/users/statements${query}`);
      expect(res.statusCode, query).toBe(422);
    }
  });

  it("reads a page in a fixed number of statements, whatever its size", async () => {
    const sent = async (per_page: number) => {
      const query = TeamStatementsQuery.parse({ period: "2026", per_page });
      const { result, sent } = await countStatements(t.db.db, (db) =>
        listTeamStatements({ ...as(t, w.users.admin), db }, query),
      );
      return { rows: result.data.length, statements: sent.sql.length };
    };
    // The newest person (the yearly rep) has lines in 2026, so both pages read plan terms.
    const one = await sent(1);
    const all = await sent(100);
    expect(one.rows).toBe(1);
    expect(all.rows).toBe(10);
    expect(all.statements).toBe(one.statements);
    // The people with their count, their lines, the plans' terms with the people's plans' currencies
    // (API.md §15's default): team-statements-paging.test.ts counts a manager's and a date's.
    expect(all.statements).toBe(3);
  });
});
