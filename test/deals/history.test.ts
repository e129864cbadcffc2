import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "../../src/audit/record.js";
import type { AuditEvent } from "../../src/audit/schema.js";
import type { Commission } from "../../src/commissions/index.js";
import { withTransaction } from "../../src/context.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

/**
 * GET /deals/{id}/history: the audit trail of one deal for whoever sees the deal — its own events,
 * its disputes' and its visible lines' — newest first and paginated; 404 for a deal the caller does not see.
 */

const clock = new TestClock();
const t: TestApp = await createTestApp({ clock });
const api = new Api(t, "admin");
let repA: User;
let repB: User;
let rep: SignedInSession;
let shared: DealDetail;
let others: DealDetail;
let dispute: Dispute;
let repBAdjustment: Commission;

const step = () => clock.advance(1000);

beforeAll(async () => {
  repA = await createUser(t, { role: "rep" });
  repB = await createUser(t, { role: "rep" });
  const plan = await createPlan(api);
  await assign(api, plan.id, repA.id);
  await assign(api, plan.id, repB.id);
  step();
  const splits = [
    { user_id: repB.id, percent: 50 },
    { user_id: repA.id, percent: 50 },
  ];
  shared = await createDeal(api, repB.id, { splits });
  others = await createDeal(api, repB.id);
  step();
  ok(await api.post(`/deals/${shared.id}/approve`));
  step();
  repBAdjustment = ok<Commission>(
    await api.post("/commissions/adjustments", { deal_id: shared.id, user_id: repB.id, amount: -12.5, reason: "fix" }),
    201,
  );
  step();
  rep = await signedInAs(t, repA);
  const opened = await t.app.inject({
    method: "POST",
    url: `/api/v1/deals/${shared.id}/disputes`,
    headers: rep.headers("POST"),
    payload: { reason: "wrong_amount", description: "Missing the split", expected_amount: 900 },
  });
  dispute = ok<Dispute>(opened, 201);
});

afterAll(async () => {
  await t.close();
});

const history = (id: string, query = "") =>
  t.app.inject({ method: "GET", url: `/api/v1/deals/${id}/history${query}`, headers: rep.headers("GET") });

/** The admin's view of the same rows: GET /audit-events for each resource, merged newest first. */
async function auditRows(pairs: [string, string][]): Promise<AuditEvent[]> {
  const rows: AuditEvent[] = [];
  for (const [resource, id] of pairs) {
    rows.push(...ok<Page<AuditEvent>>(await api.get(`/audit-events?resource=${resource}&resource_id=${id}`)).data);
  }
  return rows.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

describe("GET /deals/{id}/history", () => {
  it("a credited rep: the deal's and its dispute's events, newest first, as the audit trail has them", async () => {
    const page = ok<Page<AuditEvent>>(await history(shared.id));
    expect(page.data.map((e) => [e.action, e.resource, e.resource_id])).toEqual([
      ["deal.dispute", "deal", shared.id],
      ["dispute.open", "dispute", dispute.id],
      ["deal.approve", "deal", shared.id],
      ["deal.create", "deal", shared.id],
    ]);
    expect(page.meta).toEqual({ page: 1, per_page: 25, total: 4 });
    // As the admin's trail has them, but a deal snapshot's total is repA's lines' (API.md §20 b): their plan line.
    const [own] = (await api.get(`/commissions?deal_id=${shared.id}&user_id=${repA.id}`)).json().data as Commission[];
    // One currency: its commission_totals entry is theirs too (API.md §15).
    const narrowed = (snapshot: unknown) =>
      snapshot && {
        ...snapshot,
        total_commission: own!.amount,
        total_commission_scope: "visible",
        commission_totals: [{ currency: "USD", amount: own!.amount }],
      };
    const trail = await auditRows([
      ["deal", shared.id],
      ["dispute", dispute.id],
    ]);
    expect(page.data).toEqual(
      trail
        .filter((e) => e.action !== "deal.adjust")
        .map((e) => (e.resource === "deal" ? { ...e, before: narrowed(e.before), after: narrowed(e.after) } : e)),
    );
    expect(own!.amount).toBe(500);
    expect(page.data[0]!.actor).toEqual({ type: "user", id: repA.id, name: repA.name });
    expect(page.data[1]!.after).toMatchObject({ reason: "wrong_amount", expected_amount: 900, status: "open" });
  });

  it("another rep's line adjustment is not the rep's to see; an admin sees it", async () => {
    const seen = ok<Page<AuditEvent>>(await history(shared.id, "?per_page=100")).data;
    expect(seen.map((e) => e.resource_id)).not.toContain(repBAdjustment.id);
    // Nor its deal.adjust row: its before/after deal-wide total would tell the amount and the moment.
    expect(seen.map((e) => e.action)).not.toContain("deal.adjust");
    const asAdmin = ok<Page<AuditEvent>>(await api.get(`/deals/${shared.id}/history`));
    expect(asAdmin.data.map((e) => e.action)).toEqual([
      "deal.dispute",
      "dispute.open",
      "deal.adjust",
      "commission.adjust",
      "deal.approve",
      "deal.create",
    ]);
    expect(asAdmin.data).toEqual(
      await auditRows([
        ["deal", shared.id],
        ["dispute", dispute.id],
        ["commission", repBAdjustment.id],
      ]),
    );
    expect(asAdmin.data[3]!.after).toMatchObject({ id: repBAdjustment.id, user_id: repB.id, amount: -12.5 });
  });

  it("paginates like every list", async () => {
    const second = ok<Page<AuditEvent>>(await history(shared.id, "?per_page=2&page=2"));
    expect(second.data.map((e) => e.action)).toEqual(["deal.approve", "deal.create"]);
    expect(second.meta).toEqual({ page: 2, per_page: 2, total: 4 });
  });

  it("a deal the rep neither owns nor is credited on → 404, as GET /deals/{id}", async () => {
    const res = await history(others.id);
    expect([res.statusCode, errorOf(res).code, errorOf(res).message]).toEqual([
      404,
      "not_found",
      `Deal ${others.id} not found`,
    ]);
  });

  it("before/after keep secret fields out, as the audit trail stores them", async () => {
    step();
    const ctx = t.ownerCtx();
    await withTransaction(ctx, (tx) =>
      audit(tx, ctx, {
        action: "deal.note",
        resource: "deal",
        resourceId: shared.id,
        after: { note: "seen", secret: "s3cret", key: "k" },
      }),
    );
    const [latest] = ok<Page<AuditEvent>>(await history(shared.id)).data;
    expect([latest!.action, latest!.after]).toEqual(["deal.note", { note: "seen" }]);
  });

  it("the rep's own adjustment shows as their line's commission.adjust row, never as deal.adjust", async () => {
    step();
    const own = ok<Commission>(
      await api.post("/commissions/adjustments", { deal_id: shared.id, user_id: repA.id, amount: 20, reason: "bonus" }),
      201,
    );
    const [latest, ...rest] = ok<Page<AuditEvent>>(await history(shared.id, "?per_page=100")).data;
    expect([latest!.action, latest!.resource, latest!.resource_id]).toEqual([
      "commission.adjust",
      "commission",
      own.id,
    ]);
    expect(latest!.after).toMatchObject({ id: own.id, user_id: repA.id, amount: 20 });
    expect(rest.map((e) => e.action)).not.toContain("deal.adjust");
    const adminView = ok<Page<AuditEvent>>(await api.get(`/deals/${shared.id}/history?per_page=2`)).data;
    expect(adminView.map((e) => e.action)).toEqual(["deal.adjust", "commission.adjust"]);
  });
});
