import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal, DealDetail, DealStatus } from "../../src/deals/index.js";
import { type SeedResult, seedDemo } from "../../src/demo/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let first: SeedResult;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  first = await seedDemo(t.ownerCtx());
}, 120_000);
afterAll(() => t.close());

it("seeds 20 reps, 3 plans, a SPIFF and 500 deals in every status, idempotently; never on live", async () => {
  expect(first).toMatchObject({ users: 20, plans: 3, assignments: 20, spiffs: 1, deals: 500, created: 500 });
  for (const status of ["pending", "approved", "rejected", "disputed", "paid"] as const) {
    expect(first.statuses[status], status).toBeGreaterThan(0);
  }
  const lines = await t.db.db.selectFrom("commission_lines").select(["kind", "status", "locked"]).execute();
  expect(lines.some((l) => l.kind === "spiff")).toBe(true);
  expect(lines.filter((l) => l.status === "paid").every((l) => l.locked)).toBe(true);
  const again = await seedDemo(t.ownerCtx());
  expect(again).toEqual({ ...first, created: 0 });
  expect(
    Number(
      (
        await t.db.db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  ).toBe(20);
  await expect(seedDemo({ ...t.ownerCtx(), env: "live" })).rejects.toThrow(/live/);
});

// #13.20: every seeded state is one the API's workflow reaches, with the records that workflow leaves.
describe("#13.20 the demo seed goes through the workflow services", () => {
  /** What the workflow leaves behind for each status: audit actions and deal.* events on the deal. */
  const TRAIL: Record<DealStatus, { audits: string[]; events: string[] }> = {
    pending: { audits: ["deal.create"], events: ["deal.created"] },
    rejected: { audits: ["deal.create", "deal.reject"], events: ["deal.created", "deal.rejected"] },
    approved: { audits: ["deal.create", "deal.approve"], events: ["deal.created", "deal.approved"] },
    disputed: {
      audits: ["deal.create", "deal.approve", "deal.dispute"],
      events: ["deal.created", "deal.approved", "deal.disputed"],
    },
    paid: {
      audits: ["deal.create", "deal.approve", "deal.mark_paid"],
      events: ["deal.created", "deal.approved", "deal.paid"],
    },
  };

  async function seeded() {
    const deals = await t.db.db
      .selectFrom("deals")
      .select(["id", "status", "approved_at", "paid_at", "rejection_reason"])
      .where("external_id", "like", "demo-%")
      .execute();
    const ids = deals.map((d) => d.id);
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select(["resource_id", "action"])
      .where("resource", "=", "deal")
      .where("resource_id", "in", ids)
      .orderBy("id")
      .execute();
    const events = await t.db.db.selectFrom("events").select(["type", "data"]).orderBy("id").execute();
    const lines = await t.db.db
      .selectFrom("commission_lines")
      .select(["deal_id", "kind", "status", "locked"])
      .where("deal_id", "in", ids)
      .execute();
    const disputes = await t.db.db.selectFrom("disputes").select(["id", "deal_id", "status", "outcome"]).execute();
    return { deals, audits, events, lines, disputes };
  }

  it("each deal's fields, lines, audit rows, events and disputes are those its status's workflow leaves", async () => {
    const { deals, audits, events, lines, disputes } = await seeded();
    const disputedDeals = new Set(disputes.map((d) => d.deal_id));
    for (const deal of deals) {
      const status = deal.status as DealStatus;
      const mine = <T extends { deal_id: string }>(rows: T[]) => rows.filter((r) => r.deal_id === deal.id);
      // A deal that went through a dispute and its resolution also has those two rows, in order.
      const resolved = mine(disputes).some((d) => d.status === "resolved");
      const trail = TRAIL[status].audits.flatMap((a) =>
        resolved && a === "deal.approve" ? [a, "deal.dispute", "deal.resolve_dispute"] : [a],
      );
      expect(
        audits.filter((a) => a.resource_id === deal.id).map((a) => a.action),
        `${deal.id} ${status}`,
      ).toEqual(trail);
      const dealEvents = events
        .filter((e) => e.type.startsWith("deal.") && (e.data as { object: { id: string } }).object.id === deal.id)
        .map((e) => e.type);
      const expected = TRAIL[status].events.flatMap((e) =>
        resolved && e === "deal.approved" ? [e, "deal.disputed"] : [e],
      );
      expect(dealEvents, `${deal.id} ${status}`).toEqual(expected);

      const own = lines.filter((l) => l.deal_id === deal.id);
      const open = mine(disputes).filter((d) => d.status === "open");
      expect(open.length, `${deal.id} ${status} open disputes`).toBe(status === "disputed" ? 1 : 0);
      expect(deal.approved_at === null, deal.id).toBe(status === "pending" || status === "rejected");
      expect(deal.paid_at === null, deal.id).toBe(status !== "paid");
      expect(deal.rejection_reason === null, deal.id).toBe(status !== "rejected");
      if (status === "rejected") expect(own.every((l) => l.status === "void")).toBe(true);
      if (status === "paid") expect(own.every((l) => l.status === "paid" && l.locked)).toBe(true);
      if (status === "approved" || status === "disputed")
        expect(own.every((l) => l.status === "approved" && l.locked)).toBe(true);
      if (status === "pending") expect(own.every((l) => !l.locked && l.kind !== "adjustment")).toBe(true);
      if (!disputedDeals.has(deal.id)) expect(own.some((l) => l.kind === "adjustment")).toBe(false);
    }
    // Some deals went through a dispute that was resolved, with each outcome.
    const outcomes = new Set(disputes.filter((d) => d.status === "resolved").map((d) => d.outcome));
    expect([...outcomes].sort()).toEqual(["approved", "denied", "partially_approved"]);
    expect(lines.some((l) => l.kind === "adjustment")).toBe(true);
  });

  it("every disputed deal's open dispute resolves through the API, and the deal is approved again", async () => {
    const api = new Api(t, "admin");
    const disputed = ok<Page<Deal>>(await api.get("/deals?status=disputed&per_page=100")).data as { id: string }[];
    expect(disputed.length).toBe(first.statuses.disputed);
    for (const deal of disputed) {
      const open = ok<Page<Dispute>>(await api.get(`/disputes?deal_id=${deal.id}&status=open`));
      expect(open.meta.total, deal.id).toBe(1);
      const resolved = ok<Dispute>(await api.post(`/disputes/${open.data[0]!.id}/resolve`, { outcome: "denied" }));
      expect(resolved).toMatchObject({ status: "resolved", outcome: "denied" });
      expect(ok<DealDetail>(await api.get(`/deals/${deal.id}`)).status).toBe("approved");
    }
  });
});
