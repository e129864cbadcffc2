import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, assign, createDeal, createPlan, dealBody, lineAmounts, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

// POST /commissions/preview with deal_id (the console's deal form, issue #30): an edit priced before it is
// saved equals what PATCH then writes, on a tiered plan where the deal's own stored credit would
// otherwise count toward its attainment twice.

let t: TestApp;
let admin: Api;

beforeAll(async () => {
  t = await createTestApp();
  admin = new Api(t, "admin");
});

afterAll(async () => {
  await t?.close();
});

/** A rep on the tiered plan (10 % to quota 100,000, 15 % above) with a 60,000 deal, then a 50,000 one. */
async function twoDeals() {
  const rep = await createUser(t);
  const plan = await createPlan(admin);
  await assign(admin, plan.id, rep.id);
  const first = await createDeal(admin, rep.id, { arr_amount: 60000, close_date: "2026-07-01" });
  const second = await createDeal(admin, rep.id, { arr_amount: 50000, close_date: "2026-07-15" });
  return { rep, first, second };
}

const writable = (deal: DealDetail) => ({
  opportunity_name: deal.opportunity_name,
  arr_amount: deal.arr_amount,
  currency: deal.currency,
  deal_type: deal.deal_type,
  close_date: deal.close_date,
  owner_id: deal.owner_id,
  splits: deal.splits,
});

const previewLines = (preview: { lines: { kind: string; user_id: string; amount: number }[] }) =>
  preview.lines.map((l) => [l.kind, l.user_id, l.amount]);

describe("POST /commissions/preview with deal_id", () => {
  it("the deal as stored prices to its own lines; without deal_id its own credit counts twice", async () => {
    const { rep, second } = await twoDeals();
    // 40,000 to quota at 10 % and 10,000 above it at 15 %.
    expect(lineAmounts(second)).toEqual([["plan", rep.id, 5500]]);
    const asEdit = ok<{ lines: never[]; total_commission: number }>(
      await admin.post("/commissions/preview", { ...writable(second), deal_id: second.id }),
    );
    expect(previewLines(asEdit)).toEqual(lineAmounts(second));
    expect(asEdit.total_commission).toBe(second.total_commission);
    const asNew = ok<{ total_commission: number }>(await admin.post("/commissions/preview", writable(second)));
    expect(asNew.total_commission).toBe(7500);
  });

  it.each([
    ["a larger ARR", { arr_amount: 70000 }],
    ["a close date before the other deal", { close_date: "2026-06-30" }],
    ["a close date in the next quarter", { close_date: "2026-10-02" }],
    ["a split with someone else", "split"],
  ] as const)("%s: the preview is what PATCH then writes on the deal", async (_, change) => {
    const { rep, second } = await twoDeals();
    const partner = await createUser(t);
    const patch =
      change === "split"
        ? {
            splits: [
              { user_id: rep.id, percent: 70 },
              { user_id: partner.id, percent: 30 },
            ],
          }
        : change;
    const preview = ok<{ lines: never[]; total_commission: number }>(
      await admin.post("/commissions/preview", { ...writable(second), ...patch, deal_id: second.id }),
    );
    const saved = ok<DealDetail>(await admin.patch(`/deals/${second.id}`, patch));
    expect(previewLines(preview)).toEqual(lineAmounts(saved));
    expect(preview.total_commission).toBe(saved.total_commission);
  });

  it("a deal the caller does not see, or none, is refused as unknown (422 deal_id), writing nothing", async () => {
    const { rep, second } = await twoDeals();
    const other = await signedInAs(t, { role: "rep" });
    const preview = (headers: Record<string, string>, dealId: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/commissions/preview",
        headers,
        payload: { ...dealBody(other.user.id), deal_id: dealId },
      });
    const hidden = await preview(other.headers("POST"), second.id);
    expect(hidden.statusCode).toBe(422);
    expect(errorOf(hidden).details).toEqual([{ param: "deal_id", message: `deal ${second.id} does not exist` }]);
    const unknown = unknownId("deal");
    const missing = await preview(other.headers("POST"), unknown);
    expect(errorOf(missing).details).toEqual([{ param: "deal_id", message: `deal ${unknown} does not exist` }]);
    // The rep who owns it prices an edit of their own deal.
    const owner = await signedInAs(t, rep);
    const own = await t.app.inject({
      method: "POST",
      url: "/api/v1/commissions/preview",
      headers: owner.headers("POST"),
      payload: { ...writable(second), deal_id: second.id },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().total_commission).toBe(5500);
    expect((await admin.get(`/deals/${second.id}`)).json().total_commission).toBe(5500);
  });
});
