import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveDeal, markDealPaid, openDispute, rejectDeal, resolveDispute } from "../../src/deals/index.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { countStatements, type SentStatements } from "../statement-counter.js";

/*
 * One read of the deal per transition (issue #14): the lock returns the record, the status update
 * returns the new one, and the audit row, the event and the response reuse them. Statements counted
 * on the connection, BEGIN and COMMIT included; before the change approve sent 17 (4 deal reads),
 * reject 25 (4), mark-paid 13 (3), opening a dispute 12 (2), resolving one with an adjustment 20 (2).
 * Approve and mark-paid keep each person's line totals for the audit row (API.md §20 b) from the lines
 * the response reads anyway; the dispute transitions read them once more (11 and 18 from 10 and 17).
 * Commission-cost accounting (API.md §17) adds to approve its assets (the settings, the capitalizable
 * lines, the assets' and their postings' inserts: 12 → 16), and to an adjustment of an approved deal its
 * rebooking (the assets, the moving lines, one delete, the events' and postings' inserts: 19 → 24).
 */

let t: TestApp;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
});
afterAll(() => t.close());

/** The owner acting on the workflow services through a connection whose statements are counted. */
const counted = <T>(run: (ctx: ReturnType<TestApp["ownerCtx"]>) => Promise<T>) =>
  countStatements(t.db.db, (db) => run({ ...t.ownerCtx(), db }));

const counts = (sent: SentStatements) => ({
  statements: sent.sql.length,
  dealReads: sent.dealReads,
  dealWrites: sent.dealWrites,
});

async function pendingDeal() {
  const { user } = await repOnPlan(admin);
  return createDeal(admin, user.id);
}

async function approvedDeal() {
  const deal = await pendingDeal();
  ok(await admin.post(`/deals/${deal.id}/approve`));
  return deal;
}

describe("statements sent per transition", () => {
  it("approve: one read of the deal (its lock), one update", async () => {
    const deal = await pendingDeal();
    const { result, sent } = await counted((ctx) => approveDeal(ctx, deal.id));
    expect(result.status).toBe("approved");
    expect(counts(sent)).toEqual({ statements: 16, dealReads: 1, dealWrites: 1 });
    expect(sent.sql.filter((s) => s.includes('from "deals"'))).toEqual([
      'select * from "deals" where "id" = $1 for update',
    ]);
    expect([sent.sql[0], sent.sql.at(-1)]).toEqual(["begin", "commit"]);
  });

  it("reject: one read of the deal; its total, its status and the recalculation's totals are the writes", async () => {
    const deal = await pendingDeal();
    const { result, sent } = await counted((ctx) => rejectDeal(ctx, deal.id, "duplicate"));
    expect(result.status).toBe("rejected");
    // 21: the recalculation asks once whether anyone holds an override plan (API.md §16) before it reads more.
    expect(counts(sent)).toEqual({ statements: 21, dealReads: 1, dealWrites: 3 });
  });

  it("mark paid: one read of the deal, one update (payout runs' lock shared, its lines locked: a draft run's refuse)", async () => {
    const deal = await approvedDeal();
    const { result, sent } = await counted((ctx) => markDealPaid(ctx, deal.id));
    expect(result.status).toBe("paid");
    expect(counts(sent)).toEqual({ statements: 11, dealReads: 1, dealWrites: 1 });
  });

  it("open and resolve a dispute (with an adjustment): one read of the deal each", async () => {
    const deal = await approvedDeal();
    const opened = await counted((ctx) =>
      openDispute(ctx, deal.id, { reason: "wrong_amount", expected_amount: "1200" }),
    );
    expect(counts(opened.sent)).toEqual({ statements: 11, dealReads: 1, dealWrites: 1 });
    const resolved = await counted((ctx) => resolveDispute(ctx, opened.result.id, { outcome: "approved" }));
    expect(resolved.result).toMatchObject({ status: "resolved", resolved_amount: 1200 });
    // One more than before payout runs: whether a run paid every line (then the deal is paid).
    expect(counts(resolved.sent)).toEqual({ statements: 24, dealReads: 1, dealWrites: 2 });
  });
});
