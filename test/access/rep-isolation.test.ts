import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { Deal } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import { errorOf } from "../factories.js";
import { assign, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";
import { buildWorld, type World } from "./world.js";

/**
 * API.md §11 over HTTP: a rep's key-less session cannot see another rep's deal, line, statement,
 * dispute or assignment by id, list, filter, CSV export or statement period — 404 everywhere — and
 * meta.total counts only what they see. A visible record and an action their role lacks → 403.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
let w: World;
let rep: SignedInSession;

beforeAll(async () => {
  w = await buildWorld(t);
  rep = await signedInAs(t, w.users.repA);
});

afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: { ...rep.headers("GET"), ...headers } });
const send = (method: "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: rep.headers(method), ...(payload ? { payload } : {}) });
const expect404 = async (res: Awaited<ReturnType<typeof get>>) =>
  expect([res.statusCode, errorOf(res).code], res.body).toEqual([404, "not_found"]);
const adminGet = async <T>(url: string) => ok<T>(await w.api.get(url));

describe("another rep's records are 404 to a rep", () => {
  it("deals: by id, list, filter; meta.total counts what the rep sees", async () => {
    await expect404(await get(`/deals/${w.deals.dealB.id}`));
    const page = ok<Page<Deal>>(await get("/deals?per_page=100"));
    const ids = [w.deals.dealA.id, w.deals.shared.id, w.deals.approvedA.id].sort();
    expect([page.data.map((d) => d.id).sort(), page.meta.total]).toEqual([ids, 3]);
    const byOwner = ok<Page<Deal>>(await get(`/deals?owner_id=${w.users.repB.id}`));
    expect([byOwner.data.map((d) => d.id), byOwner.meta.total]).toEqual([[w.deals.shared.id], 1]);
  });

  it("commission lines: by id, filter and CSV export", async () => {
    const others = await adminGet<Page<Commission>>(`/commissions?user_id=${w.users.repB.id}`);
    await expect404(await get(`/commissions/${others.data[0]!.id}`));
    const filtered = ok<Page<Commission>>(await get(`/commissions?user_id=${w.users.repB.id}`));
    expect([filtered.data, filtered.meta.total]).toEqual([[], 0]);
    const own = await adminGet<Page<Commission>>(`/commissions?user_id=${w.users.repA.id}`);
    const listed = ok<Page<Commission>>(await get("/commissions"));
    expect(listed.meta.total).toBe(own.meta.total);
    const csv = await get("/commissions", { accept: "text/csv" });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(w.users.repB.id);
    expect(csv.body.trim().split("\r\n").length - 1).toBe(own.meta.total);
  });

  it("statements: every period, JSON and CSV", async () => {
    for (const period of ["2026-Q3", "2026-07", "2026"]) {
      await expect404(await get(`/users/${w.users.repB.id}/statement?period=${period}`));
      await expect404(await get(`/users/${w.users.repB.id}/statement?period=${period}`, { accept: "text/csv" }));
    }
    expect((await get(`/users/${w.users.repA.id}/statement?period=2026-Q3`)).statusCode).toBe(200);
  });

  it("disputes: by id and filter", async () => {
    const [theirs] = (await adminGet<Page<Dispute>>(`/disputes?deal_id=${w.deals.dealB.id}`)).data;
    await expect404(await get(`/disputes/${theirs!.id}`));
    const filtered = ok<Page<Dispute>>(await get(`/disputes?deal_id=${w.deals.dealB.id}`));
    expect([filtered.data, filtered.meta.total]).toEqual([[], 0]);
    await expect404(await send("POST", `/disputes/${theirs!.id}/resolve`, { outcome: "denied" }));
  });

  it("plans and assignments: another's plan, its assignments, and their assignment", async () => {
    await expect404(await get(`/comp-plans/${w.plans.planB.id}`));
    await expect404(await get(`/comp-plans/${w.plans.planB.id}/assignments`));
    await expect404(await send("PATCH", `/plan-assignments/${w.assignments.assignB.id}`, { quota_override: 1 }));
    await expect404(await send("DELETE", `/plan-assignments/${w.assignments.assignB.id}`));
  });

  it("actions on another's deal are 404, not 403", async () => {
    for (const action of ["approve", "reject", "mark-paid"]) {
      await expect404(await send("POST", `/deals/${w.deals.dealB.id}/${action}`, {}));
    }
    await expect404(await send("POST", `/deals/${w.deals.dealB.id}/disputes`, { reason: "other" }));
    await expect404(await send("PATCH", `/deals/${w.deals.dealB.id}`, { arr_amount: 1 }));
    await expect404(await send("DELETE", `/deals/${w.deals.dealB.id}`));
  });
});

describe("a rep's own records and an action their role lacks → 403 naming the role", () => {
  it.each([
    ["POST", "approve", "admin"],
    ["POST", "mark-paid", "admin or finance"],
  ] as const)("%s /deals/{own}/%s → 403 needs the %s role", async (method, action, needed) => {
    const res = await send(method, `/deals/${w.deals.approvedA.id}/${action}`, {});
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toBe(`This action needs the ${needed} role; you are rep`);
  });

  it("their own assignment cannot be edited (403), but it can be read", async () => {
    const res = await send("PATCH", `/plan-assignments/${w.assignments.assignA.id}`, { quota_override: 1 });
    expect([res.statusCode, errorOf(res).message]).toEqual([403, "This action needs the admin role; you are rep"]);
    const theirs = await assign(w.api, w.plans.planA.id, w.users.repB.id, {
      effective_from: "2025-01-01",
      effective_to: "2025-12-31",
    });
    const listed = ok<Page<{ id: string }>>(await get(`/comp-plans/${w.plans.planA.id}/assignments`));
    expect([listed.data.map((a) => a.id), listed.meta.total]).toEqual([[w.assignments.assignA.id], 1]);
    await expect404(await send("PATCH", `/plan-assignments/${theirs.id}`, { quota_override: 1 }));
  });

  it("a rep opens a dispute on their own approved deal", async () => {
    const res = await send("POST", `/deals/${w.deals.approvedA.id}/disputes`, { reason: "other" });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe("a manager's session sees their subtree over HTTP", () => {
  it("a report's report's deals and statement; not a peer's report's", async () => {
    const manager = await signedInAs(t, w.users.manager);
    const read = (url: string) => t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: manager.headers() });
    const page = ok<Page<Deal>>(await read("/deals?per_page=100"));
    const ids = [w.deals.dealA.id, w.deals.shared.id, w.deals.dealLead.id, w.deals.approvedA.id].sort();
    expect([page.data.map((d) => d.id).sort(), page.meta.total]).toEqual([ids, 4]);
    expect((await read(`/users/${w.users.repA.id}/statement?period=2026-Q3`)).statusCode).toBe(200);
    await expect404(await read(`/users/${w.users.repB.id}/statement?period=2026-Q3`));
    await expect404(await read(`/deals/${w.deals.dealB.id}`));
    const dispute = await t.app.inject({
      method: "POST",
      url: `/api/v1/deals/${w.deals.approvedA.id}/disputes`,
      headers: manager.headers("POST"),
      payload: { reason: "other" },
    });
    expect([dispute.statusCode, errorOf(dispute).message]).toEqual([
      403,
      "Disputing a deal you neither own nor are credited on needs the admin role; you are manager",
    ]);
  });
});
