import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createApiKey, createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";

/**
 * API.md §20 (b) for disputes: a rep or manager, who sees only their own lines' total, disputes that
 * total (amount_scope "user", scope_user_id them) and the resolution adjusts their lines; an admin or a
 * key disputes the deal's total, as before. Every reader sees the same dispute.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
const api = new Api(t, "admin");
let manager: User;
let repA: User;
let repB: User;
let rep: SignedInSession;
let boss: SignedInSession;
/** repA 30 % (300), repB 70 % (700) of 10,000 at 10 %: total 1,000. */
let split: DealDetail;

beforeAll(async () => {
  manager = await createUser(t, { role: "manager" });
  repA = await createUser(t, { role: "rep", manager_id: manager.id });
  repB = await createUser(t, { role: "rep" });
  const plan = await createPlan(api);
  for (const user of [manager, repA, repB]) await assign(api, plan.id, user.id);
  split = await createDeal(api, repB.id, {
    splits: [
      { user_id: repA.id, percent: 30 },
      { user_id: repB.id, percent: 70 },
    ],
  });
  await approveAsOwner(t, split.id);
  rep = await signedInAs(t, repA);
  boss = await signedInAs(t, manager);
});

afterAll(async () => {
  await t.close();
});

const openAs = async (who: SignedInSession, dealId: string, body: object) =>
  ok<Dispute>(
    await t.app.inject({
      method: "POST",
      url: `/api/v1/deals/${dealId}/disputes`,
      headers: who.headers("POST"),
      payload: { reason: "wrong_amount", ...body },
    }),
    201,
  );
const resolve = async (id: string, body: object) => ok<Dispute>(await api.post(`/disputes/${id}/resolve`, body));
/** A deal's adjustment lines, oldest first. */
const adjustments = async (dealId: string) =>
  ok<Page<Commission>>(await api.get(`/commissions?deal_id=${dealId}&kind=adjustment`)).data.sort((a, b) =>
    a.id.localeCompare(b.id),
  );

describe("a dispute opened by a rep is about their own lines", () => {
  it("scope user; approved at the expected amount, the difference is an adjustment of theirs", async () => {
    const opened = await openAs(rep, split.id, { expected_amount: 350.5 });
    expect(opened).toMatchObject({ amount_scope: "user", scope_user_id: repA.id, expected_amount: 350.5 });
    const resolved = await resolve(opened.id, { outcome: "approved" });
    expect(resolved).toMatchObject({ amount_scope: "user", scope_user_id: repA.id, resolved_amount: 350.5 });
    const [line] = await adjustments(split.id);
    expect([line!.user_id, line!.amount]).toEqual([repA.id, 50.5]);
    expect(line!.explanation).toMatchObject({
      dispute: { id: opened.id, previous_total: "300.00", accepted_total: "350.50" },
    });
    expect((await getDeal(api, split.id)).total_commission).toBe(1050.5);
    const seen = ok<DealDetail>(await t.app.inject({ url: `/api/v1/deals/${split.id}`, headers: rep.headers() }));
    expect([seen.total_commission, seen.total_commission_scope]).toEqual([350.5, "visible"]);
  });

  it("partially approved: resolved_amount is their new total; denied moves nothing", async () => {
    const opened = await openAs(rep, split.id, { expected_amount: 400 });
    await resolve(opened.id, { outcome: "partially_approved", resolved_amount: 340 });
    expect((await adjustments(split.id)).map((l) => [l.user_id, l.amount])).toEqual([
      [repA.id, 50.5],
      [repA.id, -10.5],
    ]);
    const denied = await openAs(rep, split.id, { expected_amount: 999 });
    expect(await resolve(denied.id, { outcome: "denied" })).toMatchObject({ resolved_amount: null });
    expect((await adjustments(split.id)).length).toBe(2);
    expect((await getDeal(api, split.id)).total_commission).toBe(1040);
  });

  it("every reader sees the same dispute: the rep, their manager, an admin, a read key", async () => {
    const [latest] = ok<Page<Dispute>>(await api.get(`/disputes?deal_id=${split.id}`)).data;
    const key = bearer((await createApiKey(t, "read")).key);
    const bodies = await Promise.all(
      [rep.headers(), boss.headers(), key].map(
        async (headers) => (await t.app.inject({ url: `/api/v1/disputes/${latest!.id}`, headers })).json() as Dispute,
      ),
    );
    expect(bodies).toEqual([latest, latest, latest]);
  });

  it("a manager credited on a deal disputes their own lines too", async () => {
    const theirs = await createDeal(api, repB.id, {
      splits: [
        { user_id: manager.id, percent: 50 },
        { user_id: repB.id, percent: 50 },
      ],
    });
    await approveAsOwner(t, theirs.id);
    const opened = await openAs(boss, theirs.id, { expected_amount: 520 });
    expect(opened).toMatchObject({ amount_scope: "user", scope_user_id: manager.id });
    await resolve(opened.id, { outcome: "approved" });
    expect((await adjustments(theirs.id)).map((l) => [l.user_id, l.amount])).toEqual([[manager.id, 20]]);
  });
});

describe("a dispute opened by a key or an admin is about the deal's total, as before", () => {
  it.each([
    ["a write key", async () => ({ headers: bearer((await createApiKey(t, "write")).key) })],
    ["an admin", async () => ({ headers: (await signedInAs(t, { role: "admin" })).headers("POST") })],
  ])("%s: scope deal; the adjustment goes to the owner", async (_, who) => {
    const deal = await createDeal(api, repB.id, {
      splits: [
        { user_id: repA.id, percent: 50 },
        { user_id: repB.id, percent: 50 },
      ],
    });
    await approveAsOwner(t, deal.id);
    const { headers } = await who();
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/deals/${deal.id}/disputes`,
      headers,
      payload: { reason: "other", expected_amount: 1100 },
    });
    const opened = ok<Dispute>(res, 201);
    expect(opened).toMatchObject({ amount_scope: "deal", scope_user_id: null });
    await resolve(opened.id, { outcome: "approved" });
    expect((await adjustments(deal.id)).map((l) => [l.user_id, l.amount])).toEqual([[repB.id, 100]]);
    expect((await getDeal(api, deal.id)).total_commission).toBe(1100);
  });
});
