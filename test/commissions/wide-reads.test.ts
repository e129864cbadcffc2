import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countCredits, loadCredits } from "../../src/commissions/testing.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, rejectAsOwner } from "../factories-commissions.js";
import { createTestApp, POSTGRES_URL, type TestApp } from "../harness.js";
import { countStatements } from "../statement-counter.js";

/*
 * Issue #19 (no stall): the embedded database has one connection, and a plan-wide read of pending
 * credits (counting them to choose inline or job, loading them for an impact or an inline
 * recalculation) was one statement over every credit of the plan: 0.5 s of PGlite at 20,000 deals,
 * during which no other request's statement ran (and, before PGlite had its own thread, not even
 * /healthz was answered). It reads a few users a statement there; what it returns must be exactly what
 * the one statement returned. PostgreSQL has many connections and reads them in one statement, but by the
 * same list of users: given the plan's people as a subquery, its planner took a plan's 44,000 lines for
 * as many people and matched every pending credit in a database of 2,000,000 deals to the plan (4.7 s
 * to count them; bench/scale.mjs, the impact preview).
 */
const REPS = 10;
const USERS_PER_STATEMENT = 2;

let t: TestApp;
let planId: string;
/** `deal_id|user_id` of every pending credit the plan reaches. */
const expected = new Set<string>();

beforeAll(async () => {
  t = await createTestApp();
  const api = new Api(t);
  const plan = await createPlan(api);
  planId = plan.id;
  const other = await createPlan(api);
  const outsider = await createUser(t);
  await assign(api, other.id, outsider.id);
  const reps = [];
  for (let i = 0; i < REPS; i++) {
    const rep = await createUser(t);
    await assign(api, plan.id, rep.id);
    reps.push(rep);
    for (let d = 0; d < 2; d++) {
      const deal = await createDeal(api, rep.id, { close_date: `2026-0${4 + d}-1${i % 9}` });
      expected.add(`${deal.id}|${rep.id}`);
    }
  }
  // A deal shared with a rep of another plan: only the plan's rep's credit is the plan's.
  const shared = await createDeal(api, reps[0]!.id, {
    splits: [
      { user_id: reps[0]!.id, percent: 50 },
      { user_id: outsider.id, percent: 50 },
    ],
  });
  expected.add(`${shared.id}|${reps[0]!.id}`);
  // Not pending: neither counted nor loaded.
  await approveAsOwner(t, (await createDeal(api, reps[1]!.id)).id);
  await rejectAsOwner(t, (await createDeal(api, reps[2]!.id)).id);
  // The outsider's own deal is not the plan's.
  await createDeal(api, outsider.id);
});
afterAll(async () => t?.close());

/** The user ids each statement over pending credits was limited to (undefined: not limited). */
function usersPerCreditRead(sent: { sql: string[]; parameters: (readonly unknown[])[] }) {
  return sent.sql.flatMap((text, i) =>
    /from "deal_splits" as "s" inner join "deals" as "d"/.test(text)
      ? [sent.parameters[i]!.find((p): p is string[] => Array.isArray(p) && p.every((u) => /^usr_/.test(String(u))))]
      : [],
  );
}

/** The plan's people: the reps assigned to it (the outsider's credits are another plan's). */
const planUsers = () => [...new Set([...expected].map((k) => k.split("|")[1]!))].sort();

function expectSplitOnEmbeddedOnly(limits: (string[] | undefined)[]) {
  if (POSTGRES_URL) {
    expect(limits).toEqual([planUsers()]);
    return;
  }
  expect(limits).toHaveLength(Math.ceil(REPS / USERS_PER_STATEMENT));
  for (const users of limits) expect(users?.length).toBeLessThanOrEqual(USERS_PER_STATEMENT);
}

describe("plan-wide reads of pending credits by the plan's people: a few a statement embedded, all in one on PostgreSQL", () => {
  it("count the plan's pending credits exactly", async () => {
    const { result, sent } = await countStatements(t.db.db, (db) =>
      countCredits(db, [{ type: "plan", plan_id: planId }]),
    );
    expect(result).toBe(expected.size);
    expectSplitOnEmbeddedOnly(usersPerCreditRead(sent));
  });

  it("load exactly the plan's pending credits, each once", async () => {
    const { result, sent } = await countStatements(t.db.db, (db) =>
      loadCredits(db, [{ type: "plan", plan_id: planId }]),
    );
    const loaded = result.map((c) => `${c.deal.id}|${c.user_id}`);
    expect(loaded).toHaveLength(expected.size);
    expect(new Set(loaded)).toEqual(expected);
    expectSplitOnEmbeddedOnly(usersPerCreditRead(sent));
  });

  it("a job batch's users are read in one statement (inside its transaction a split lets nobody in)", async () => {
    const users = [...new Set([...expected].map((k) => k.split("|")[1]!))].slice(0, 6);
    const { result, sent } = await countStatements(t.db.db, (db) =>
      loadCredits(db, [{ type: "plan", plan_id: planId }], users),
    );
    expect(new Set(result.map((c) => `${c.deal.id}|${c.user_id}`))).toEqual(
      new Set([...expected].filter((k) => users.includes(k.split("|")[1]!))),
    );
    expect(usersPerCreditRead(sent)).toEqual([users]);
  });
});
