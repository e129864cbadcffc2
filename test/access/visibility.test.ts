import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { visibleUserIds } from "../../src/access/index.js";
import { getCommission, getStatement, ListCommissionsQuery, listCommissions } from "../../src/commissions/index.js";
import { exportCommissions } from "../../src/commissions/testing.js";
import {
  getPlan,
  ListAssignmentsQuery,
  ListPlansQuery,
  listAssignments,
  listPlans,
} from "../../src/comp-plans/index.js";
import { getAssignment } from "../../src/comp-plans/testing.js";
import type { Ctx } from "../../src/context.js";
import {
  approveDeal,
  createAdjustment,
  getDeal,
  ListDealsQuery,
  listDeals,
  markDealPaid,
  openDispute,
  PreviewBody,
  previewDeal,
} from "../../src/deals/index.js";
import { getDispute, ListDisputesQuery, listDisputes } from "../../src/disputes/index.js";
import { ListSpiffsQuery, listSpiffs } from "../../src/spiffs/index.js";
import { getUser, ListUsersQuery, listUsers } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { as, buildWorld, setManager } from "./world.js";

/** API.md §11 in the services (what REST, MCP and the console share): outside → 404, lists hold only what is seen. */

const t: TestApp = await createTestApp({ clock: new TestClock() });
const w = await buildWorld(t);
const { users, deals, plans, assignments } = w;

afterAll(async () => {
  await t.close();
});

const notFound = { code: "not_found" };
const sorted = (ids: string[]) => [...ids].sort();
const disputeOf = async (dealId: string) =>
  (await listDisputes(t.ownerCtx(), ListDisputesQuery.parse({ deal_id: dealId }))).data[0]!;
const linesOf = async (userId: string) =>
  (await listCommissions(t.ownerCtx(), ListCommissionsQuery.parse({ user_id: userId, per_page: 100 }))).data;

async function csvOf(ctx: Ctx, query: Record<string, string> = {}): Promise<string> {
  let text = "";
  for await (const chunk of exportCommissions(ctx, ListCommissionsQuery.parse(query)) as Readable) text += chunk;
  return text;
}

describe("whose records each person sees", () => {
  it("a rep sees themself; finance, admins, keys and the owner see everyone (null)", async () => {
    expect(await visibleUserIds(as(t, users.repA))).toEqual([users.repA.id]);
    expect(await visibleUserIds(as(t, users.finance))).toBeNull();
    expect(await visibleUserIds(as(t, users.admin))).toBeNull();
    expect(await visibleUserIds(t.ownerCtx())).toBeNull();
  });

  it("a manager sees their whole subtree (a report's report too), never a peer's reports or their own boss", async () => {
    const seen = await visibleUserIds(as(t, users.manager));
    expect(sorted([...seen!])).toEqual(sorted([users.manager.id, users.lead.id, users.repA.id]));
  });

  it("a cycle in manager_id ends (UNION) with each member once", async () => {
    const [c1, c2, c3] = [await createUser(t, { role: "manager" }), await createUser(t), await createUser(t)];
    await setManager(t, c2.id, c1.id);
    await setManager(t, c3.id, c2.id);
    await setManager(t, c1.id, c3.id);
    const seen = await visibleUserIds(as(t, c1));
    expect(sorted([...seen!])).toEqual(sorted([c1.id, c2.id, c3.id]));
  });

  it("is read once per request context", async () => {
    const ctx = as(t, users.manager);
    expect(visibleUserIds(ctx)).toBe(visibleUserIds(ctx));
  });
});

describe("a rep sees only their own records: 404 by id, absent from lists, filters and exports", () => {
  const rep = () => as(t, users.repA);

  it("deals: owned or credited on, by list, filter and id; meta.total counts only those", async () => {
    const page = await listDeals(rep(), ListDealsQuery.parse({}));
    expect(sorted(page.data.map((d) => d.id))).toEqual(sorted([deals.dealA.id, deals.shared.id, deals.approvedA.id]));
    expect(page.meta.total).toBe(3);
    const filtered = await listDeals(rep(), ListDealsQuery.parse({ owner_id: users.repB.id }));
    expect([filtered.data.map((d) => d.id), filtered.meta.total]).toEqual([[deals.shared.id], 1]);
    const disputed = await listDeals(rep(), ListDealsQuery.parse({ status: "disputed" }));
    expect([disputed.data.map((d) => d.id), disputed.meta.total]).toEqual([[deals.dealA.id], 1]);
    await expect(getDeal(rep(), deals.dealB.id)).rejects.toMatchObject(notFound);
    await expect(getDeal(rep(), deals.dealLead.id)).rejects.toMatchObject(notFound);
  });

  it("a shared deal shows only the rep's own lines", async () => {
    const all = await getDeal(t.ownerCtx(), deals.shared.id);
    expect(sorted(all.commissions.map((c) => c.user_id))).toEqual(sorted([users.repA.id, users.repB.id]));
    const seen = await getDeal(rep(), deals.shared.id);
    expect(seen.commissions.map((c) => c.user_id)).toEqual([users.repA.id]);
  });

  it("commission lines: list, filter by another user, CSV export and by id", async () => {
    const own = await linesOf(users.repA.id);
    expect(own.length).toBeGreaterThan(0);
    const page = await listCommissions(rep(), ListCommissionsQuery.parse({ per_page: 100 }));
    expect(sorted(page.data.map((c) => c.id))).toEqual(sorted(own.map((c) => c.id)));
    expect(page.meta.total).toBe(own.length);
    const other = await listCommissions(rep(), ListCommissionsQuery.parse({ user_id: users.repB.id }));
    expect([other.data, other.meta.total]).toEqual([[], 0]);
    const [lineB] = await linesOf(users.repB.id);
    await expect(getCommission(rep(), lineB!.id)).rejects.toMatchObject(notFound);
    const csv = await csvOf(rep());
    expect(csv.trim().split("\r\n").length - 1).toBe(own.length);
    expect(csv).not.toContain(users.repB.id);
    expect(await csvOf(rep(), { user_id: users.repB.id })).not.toContain(users.repB.id);
  });

  it("statements: their own; another rep's in any period → 404", async () => {
    const own = await getStatement(rep(), users.repA.id, "2026-Q3");
    expect(own.lines.every((l) => l.user_id === users.repA.id)).toBe(true);
    for (const period of ["2026-Q3", "2026-07", "2026"]) {
      await expect(getStatement(rep(), users.repB.id, period)).rejects.toMatchObject(notFound);
    }
  });

  it("disputes: those on their deals only", async () => {
    const page = await listDisputes(rep(), ListDisputesQuery.parse({}));
    const mine = await disputeOf(deals.dealA.id);
    expect([page.data.map((d) => d.id), page.meta.total]).toEqual([[mine.id], 1]);
    const filtered = await listDisputes(rep(), ListDisputesQuery.parse({ deal_id: deals.dealB.id }));
    expect([filtered.data, filtered.meta.total]).toEqual([[], 0]);
    await expect(getDispute(rep(), (await disputeOf(deals.dealB.id)).id)).rejects.toMatchObject(notFound);
  });

  it("plans and assignments: those assigned to them", async () => {
    const page = await listPlans(rep(), ListPlansQuery.parse({}));
    expect([page.data.map((p) => p.id), page.meta.total]).toEqual([[plans.planA.id], 1]);
    for (const plan of [plans.planB, plans.unassigned]) {
      await expect(getPlan(rep(), plan.id)).rejects.toMatchObject(notFound);
      await expect(listAssignments(rep(), plan.id, ListAssignmentsQuery.parse({}))).rejects.toMatchObject(notFound);
    }
    const listed = await listAssignments(rep(), plans.planA.id, ListAssignmentsQuery.parse({}));
    expect([listed.data.map((a) => a.id), listed.meta.total]).toEqual([[assignments.assignA.id], 1]);
    await expect(getAssignment(rep(), assignments.assignB.id)).rejects.toMatchObject(notFound);
  });

  it("users: themself only; SPIFFs: all", async () => {
    const page = await listUsers(rep(), ListUsersQuery.parse({}));
    expect([page.data.map((u) => u.id), page.meta.total]).toEqual([[users.repA.id], 1]);
    await expect(getUser(rep(), users.repB.id)).rejects.toMatchObject(notFound);
    await expect(getUser(rep(), users.lead.id)).rejects.toMatchObject(notFound);
    const spiffs = await listSpiffs(rep(), ListSpiffsQuery.parse({}));
    const everyone = await listSpiffs(t.ownerCtx(), ListSpiffsQuery.parse({}));
    expect(spiffs.meta.total).toBe(everyone.meta.total);
  });

  it("a preview naming a user they do not see is refused as if the user were unknown (422)", async () => {
    const body = (owner: string) =>
      PreviewBody.parse({ opportunity_name: "P", arr_amount: 1000, close_date: "2026-07-01", owner_id: owner });
    await expect(previewDeal(rep(), body(users.repB.id))).rejects.toMatchObject({ code: "validation_error" });
    const preview = await previewDeal(rep(), body(users.repA.id));
    expect(preview.lines.map((l) => l.user_id)).toEqual([users.repA.id]);
  });
});

describe("a manager sees their subtree", () => {
  const manager = () => as(t, users.manager);

  it("deals, lines and statements of a report's report; not a peer's", async () => {
    const page = await listDeals(manager(), ListDealsQuery.parse({}));
    const expected = [deals.dealA.id, deals.shared.id, deals.dealLead.id, deals.approvedA.id];
    expect(sorted(page.data.map((d) => d.id))).toEqual(sorted(expected));
    expect(page.meta.total).toBe(4);
    expect((await getDeal(manager(), deals.dealA.id)).id).toBe(deals.dealA.id);
    await expect(getDeal(manager(), deals.dealB.id)).rejects.toMatchObject(notFound);
    expect((await getStatement(manager(), users.repA.id, "2026-Q3")).user_id).toBe(users.repA.id);
    await expect(getStatement(manager(), users.repB.id, "2026-Q3")).rejects.toMatchObject(notFound);
    await expect(getStatement(manager(), users.boss.id, "2026-Q3")).rejects.toMatchObject(notFound);
    const listed = await listUsers(manager(), ListUsersQuery.parse({}));
    expect(sorted(listed.data.map((u) => u.id))).toEqual(sorted([users.manager.id, users.lead.id, users.repA.id]));
    expect(listed.meta.total).toBe(3);
  });
});

describe("what each role may do", () => {
  it("a rep disputes their own approved deal; another rep's deal → 404", async () => {
    await expect(openDispute(as(t, users.repB), deals.approvedA.id, { reason: "other" })).rejects.toMatchObject(
      notFound,
    );
    await expect(openDispute(as(t, users.manager), deals.approvedA.id, { reason: "other" })).rejects.toMatchObject({
      code: "forbidden",
      message: "Disputing a deal you neither own nor are credited on needs the admin role; you are manager",
    });
    const dispute = await openDispute(as(t, users.repA), deals.approvedA.id, { reason: "other" });
    expect(dispute.deal_id).toBe(deals.approvedA.id);
  });

  it("finance marks paid and adjusts; approving needs the admin role", async () => {
    const deal = await getDeal(t.ownerCtx(), deals.shared.id);
    await expect(approveDeal(as(t, users.finance), deal.id)).rejects.toMatchObject({
      code: "forbidden",
      message: "This action needs the admin role; you are finance",
    });
    await approveDeal(as(t, users.admin), deal.id);
    expect((await markDealPaid(as(t, users.finance), deal.id)).status).toBe("paid");
    const line = await createAdjustment(as(t, users.finance), {
      deal_id: deal.id,
      user_id: users.repB.id,
      amount: "10.00",
      reason: "spot bonus",
    });
    expect(line.amount).toBe(10);
    await expect(markDealPaid(as(t, users.repA), deals.dealA.id)).rejects.toMatchObject({
      code: "forbidden",
      message: "This action needs the admin or finance role; you are rep",
    });
  });
});
