import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Assignment } from "../../src/comp-plans/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

// GET /plan-assignments (#28): every plan's assignments in one list, so an admin's setup checklist
// counts them with one request however many plans there are (it counted the 5 newest plans' only).

let t: TestApp;
let api: Api;
const made: Assignment[] = [];
const plans: string[] = [];
let sessions: Record<"manager" | "underManager" | "elsewhere", SignedInSession>;

beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  // Seven plans, oldest first: the oldest is beyond the five newest the checklist used to read.
  for (let i = 0; i < 7; i++) plans.push((await createPlan(api, { name: `Plan ${i + 1}` })).id);
  const manager = await createUser(t, { role: "manager" });
  const underManager = await createUser(t, { role: "rep", manager_id: manager.id });
  const elsewhere = await createUser(t, { role: "rep" });
  const another = await createUser(t, { role: "rep" });
  const { recalculation_job_id: _a, ...first } = await assign(api, plans[0]!, underManager.id);
  const { recalculation_job_id: _b, ...second } = await assign(api, plans[6]!, elsewhere.id);
  const { recalculation_job_id: _c, ...third } = await assign(api, plans[0]!, another.id, {
    effective_to: "2026-06-30",
  });
  made.push(first, second, third);
  sessions = {
    manager: await signedInAs(t, manager),
    underManager: await signedInAs(t, underManager),
    elsewhere: await signedInAs(t, elsewhere),
  };
});
afterAll(() => t.close());

const list = async (query = "", session?: SignedInSession) => {
  const res = session
    ? await t.app.inject({ method: "GET", url: `/api/v1/plan-assignments${query}`, headers: session.headers() })
    : await api.get(`/plan-assignments${query}`);
  return ok<Page<Assignment>>(res);
};

describe("GET /plan-assignments", () => {
  it("lists every plan's assignments, newest first, and counts them all in meta.total", async () => {
    const [first, second, third] = made;
    expect(await list()).toEqual({ data: [third, second, first], meta: { page: 1, per_page: 25, total: 3 } });
    // What the checklist asks: one record, the count of all.
    expect(await list("?page=1&per_page=1")).toEqual({ data: [third], meta: { page: 1, per_page: 1, total: 3 } });
    expect(await list("?page=2&per_page=2")).toEqual({ data: [first], meta: { page: 2, per_page: 2, total: 3 } });
  });

  it("plan_id and user_id narrow it; an unknown plan lists nothing", async () => {
    const [first, second, third] = made;
    expect((await list(`?plan_id=${plans[0]}`)).data).toEqual([third, first]);
    expect((await list(`?plan_id=${plans[6]}`)).data).toEqual([second]);
    expect((await list(`?user_id=${first!.user_id}`)).data).toEqual([first]);
    expect((await list(`?plan_id=${plans[6]}&user_id=${first!.user_id}`)).meta.total).toBe(0);
    expect(await list(`?plan_id=${unknownId("plan")}`)).toEqual({
      data: [],
      meta: { page: 1, per_page: 25, total: 0 },
    });
  });

  it("a person lists the assignments of those they see, and meta.total counts only those", async () => {
    const [first, second] = made;
    expect(await list("", sessions.underManager)).toEqual({ data: [first], meta: { page: 1, per_page: 25, total: 1 } });
    // A manager sees their report's (and would see their own).
    expect(await list("", sessions.manager)).toEqual({ data: [first], meta: { page: 1, per_page: 25, total: 1 } });
    expect(await list("", sessions.elsewhere)).toEqual({ data: [second], meta: { page: 1, per_page: 25, total: 1 } });
    expect((await list(`?user_id=${first!.user_id}`, sessions.elsewhere)).meta.total).toBe(0);
  });

  it("refuses an unknown query parameter (422 naming it)", async () => {
    const res = await api.get("/plan-assignments?status=active");
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.map((d) => d.param)).toEqual(["status"]);
  });
});
