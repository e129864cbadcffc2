import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "../../src/audit/record.js";
import type { AuditEvent } from "../../src/audit/schema.js";
import { withTransaction } from "../../src/context.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

/**
 * API.md §20 (b) in a deal's history: each deal snapshot's total_commission is, for a rep, the sum of
 * their lines at that moment (kept with the audit row), through every change that moves an amount —
 * an edit, a dispute's resolution, a rejection — while an admin keeps reading the deal's totals.
 */

const clock = new TestClock();
const t: TestApp = await createTestApp({ clock });
const api = new Api(t, "admin");
let repA: User;
let rep: SignedInSession;
let deal: DealDetail;
let rejected: DealDetail;

beforeAll(async () => {
  repA = await createUser(t, { role: "rep" });
  const repB = await createUser(t, { role: "rep" });
  const plan = await createPlan(api);
  for (const user of [repA, repB]) await assign(api, plan.id, user.id);
  rep = await signedInAs(t, repA);
  const splits = [
    { user_id: repA.id, percent: 40 },
    { user_id: repB.id, percent: 60 },
  ];
  const steps: (() => Promise<unknown>)[] = [
    async () => (deal = await createDeal(api, repB.id, { arr_amount: 10000, splits })),
    async () => ok(await api.patch(`/deals/${deal.id}`, { arr_amount: 20000 })),
    async () => ok(await api.post(`/deals/${deal.id}/approve`)),
    async () => {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/deals/${deal.id}/disputes`,
        headers: rep.headers("POST"),
        payload: { reason: "wrong_amount", expected_amount: 850.25 },
      });
      return ok<Dispute>(res, 201);
    },
    async () => {
      const [open] = ok<Page<Dispute>>(await api.get(`/disputes?deal_id=${deal.id}`)).data;
      return ok(await api.post(`/disputes/${open!.id}/resolve`, { outcome: "approved" }));
    },
    async () => ok(await api.post(`/deals/${deal.id}/mark-paid`)),
    async () => (rejected = await createDeal(api, repB.id, { splits })),
    async () => ok(await api.post(`/deals/${rejected.id}/reject`, { reason: "duplicate" })),
  ];
  for (const run of steps) {
    clock.advance(1000);
    await run();
  }
});

afterAll(async () => {
  await t.close();
});

/** [action, before total, after total, scopes] of each deal row of the history, oldest first. */
async function totals(id: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: "GET", url: `/api/v1/deals/${id}/history?per_page=100`, headers });
  const rows = ok<Page<AuditEvent>>(res).data.filter((e) => e.resource === "deal");
  const of = (snapshot: unknown) => (snapshot as { total_commission?: number } | null)?.total_commission;
  const scope = (snapshot: unknown) => (snapshot as { total_commission_scope?: string } | null)?.total_commission_scope;
  return rows.reverse().map((e) => [e.action, of(e.before), of(e.after), scope(e.before) ?? scope(e.after)]);
}

describe("a deal's history shows a rep the sum of their lines then", () => {
  it("through an edit, an approval, a dispute of their own lines and its resolution, and payment", async () => {
    expect(await totals(deal.id, rep.headers())).toEqual([
      ["deal.create", undefined, 400, "visible"],
      ["deal.update", 400, 800, "visible"],
      ["deal.approve", 800, 800, "visible"],
      ["deal.dispute", 800, 800, "visible"],
      ["deal.resolve_dispute", 800, 850.25, "visible"],
      ["deal.mark_paid", 850.25, 850.25, "visible"],
    ]);
  });

  it("an admin reads the deal's totals in the same rows", async () => {
    const admin = await signedInAs(t, { role: "admin" });
    expect(await totals(deal.id, admin.headers())).toEqual([
      ["deal.create", undefined, 1000, "deal"],
      ["deal.update", 1000, 2000, "deal"],
      ["deal.approve", 2000, 2000, "deal"],
      ["deal.dispute", 2000, 2000, "deal"],
      ["deal.resolve_dispute", 2000, 2050.25, "deal"],
      ["deal.mark_paid", 2050.25, 2050.25, "deal"],
    ]);
  });

  it("a rejection: their lines before, nothing after", async () => {
    expect(await totals(rejected.id, rep.headers())).toEqual([
      ["deal.create", undefined, 400, "visible"],
      ["deal.reject", 400, 0, "visible"],
    ]);
  });

  it("a row written before line totals were kept shows a rep null, never the deal's total", async () => {
    clock.advance(1000);
    const snapshot = { id: deal.id, status: "paid", total_commission: 2050.25 };
    await withTransaction(t.ownerCtx(), (tx) =>
      audit(tx, t.ownerCtx(), { action: "deal.legacy", resource: "deal", resourceId: deal.id, after: snapshot }),
    );
    const rows = await totals(deal.id, rep.headers());
    expect(rows.at(-1)).toEqual(["deal.legacy", undefined, null, "visible"]);
  });
});
