import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission, Statement } from "../../src/commissions/index.js";
import { CSV_HEADER } from "../../src/commissions/testing.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, getDeal, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/*
 * API.md §12: statements and a deal's line list show retroactive adjustments with their link to the
 * original (locked, unchanged) line, on every surface that lists lines.
 */

interface Retroactive {
  plan_id: string;
  from_version: number;
  to_version: number;
  original_line_id: string;
  before: { amount: string; explanation: unknown };
  after: { amount: string; explanation: unknown };
}
const retroactiveOf = (line: Commission) => (line.explanation as { retroactive?: Retroactive }).retroactive;

let t: TestApp;
let api: Api;
let rep: { id: string };
let planId: string;
/** An approved deal of 50,000 and a paid one of 10,000; both repriced twice (10 % → 12 % → 11 %). */
let approved: DealDetail;
let paid: DealDetail;
/** Their plan lines as they were locked. */
let originals: Commission[];

beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  rep = await createUser(t, { name: "Ada Rep" });
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  planId = plan.id;
  await assign(api, plan.id, rep.id);
  approved = await createDeal(api, rep.id, { arr_amount: 50000, close_date: "2026-07-10" });
  paid = await createDeal(api, rep.id, { arr_amount: 10000, close_date: "2026-08-10" });
  await approveAsOwner(t, approved.id);
  await approveAsOwner(t, paid.id, "paid");
  originals = [...(await getDeal(api, approved.id)).commissions, ...(await getDeal(api, paid.id)).commissions];
  expect(originals.map((l) => [l.kind, l.amount, l.locked])).toEqual([
    ["plan", 5000, true],
    ["plan", 1000, true],
  ]);
  for (const base_rate of [0.12, 0.11]) {
    ok(await api.patch(`/comp-plans/${plan.id}`, { base_rate, retroactive: true }));
  }
});
afterAll(() => t.close());

/** [amount, from_version, to_version] of the deal's adjustments, each linked to `original`. */
function adjustmentsLinkedTo(lines: Commission[], original: Commission) {
  return lines
    .filter((l) => l.kind === "adjustment" && retroactiveOf(l)?.original_line_id === original.id)
    .map((l) => [l.amount, retroactiveOf(l)!.from_version, retroactiveOf(l)!.to_version]);
}

describe("retroactive adjustments link to the line they correct (API.md §12)", () => {
  it("GET /deals/{id}: the locked line unchanged, then one adjustment per change naming it", async () => {
    const deal = await getDeal(api, approved.id);
    expect(deal.total_commission).toBe(5500);
    expect(deal.commissions[0]).toEqual(originals[0]);
    expect(deal.commissions.map((l) => [l.kind, l.amount, l.status, l.locked])).toEqual([
      ["plan", 5000, "approved", true],
      ["adjustment", 1000, "approved", true],
      ["adjustment", -500, "approved", true],
    ]);
    expect(adjustmentsLinkedTo(deal.commissions, originals[0]!)).toEqual([
      [1000, 1, 2],
      [-500, 2, 3],
    ]);
    const [first, second] = deal.commissions.slice(1).map((l) => retroactiveOf(l)!);
    expect(first).toMatchObject({ plan_id: planId, before: { amount: "5000.00" }, after: { amount: "6000.00" } });
    // The second correction starts from the line plus the first correction.
    expect(second).toMatchObject({ plan_id: planId, before: { amount: "6000.00" }, after: { amount: "5500.00" } });
    expect(first!.before.explanation).toEqual(originals[0]!.explanation);
    expect(first!.after.explanation).toMatchObject({ plan_version: 2, amount: 6000 });
    expect(second!.after.explanation).toMatchObject({ plan_version: 3, amount: 5500 });

    const paidDeal = await getDeal(api, paid.id);
    expect(paidDeal.commissions[0]).toEqual(originals[1]);
    expect(adjustmentsLinkedTo(paidDeal.commissions, originals[1]!)).toEqual([
      [200, 1, 2],
      [-100, 2, 3],
    ]);
  });

  it("GET /commissions?deal_id= and GET /commissions/{id} carry the same lines and links", async () => {
    for (const dealId of [approved.id, paid.id]) {
      const deal = await getDeal(api, dealId);
      const listed = ok<Page<Commission>>(await api.get(`/commissions?deal_id=${dealId}`)).data;
      const byId = (lines: Commission[]) => [...lines].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(listed)).toEqual(byId(deal.commissions));
      for (const line of deal.commissions.filter((l) => l.kind === "adjustment")) {
        expect(ok<Commission>(await api.get(`/commissions/${line.id}`))).toEqual(line);
      }
    }
    const adjustments = ok<Page<Commission>>(await api.get(`/commissions?user_id=${rep.id}&kind=adjustment`)).data;
    expect(adjustments.map((l) => retroactiveOf(l)!.original_line_id).sort()).toEqual(
      [originals[0]!.id, originals[0]!.id, originals[1]!.id, originals[1]!.id].sort(),
    );
  });

  it("GET /users/{id}/statement lists the adjustments beside their lines, counted in totals only", async () => {
    const statement = ok<Statement>(await api.get(`/users/${rep.id}/statement?period=2026-Q3`));
    expect(statement.totals).toEqual({
      plan: 6000,
      spiff: 0,
      override: 0,
      adjustment: 600,
      clawback: 0,
      draw: 0,
      total: 6600,
    });
    for (const original of originals) {
      expect(statement.lines).toContainEqual({
        ...original,
        deal: expect.objectContaining({ id: original.deal_id }),
        payout_run: null,
      });
      expect(adjustmentsLinkedTo(statement.lines, original)).toHaveLength(2);
    }
    const deal = await getDeal(api, approved.id);
    for (const line of deal.commissions)
      expect(statement.lines).toContainEqual({
        ...line,
        deal: expect.objectContaining({ id: approved.id }),
        payout_run: null,
      });
  });

  it("the statement CSV carries each adjustment with a readable explanation_summary naming the line", async () => {
    const res = await api.get(`/users/${rep.id}/statement?period=2026-Q3`, { accept: "text/csv" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = parse(res.body, { bom: true }) as string[][];
    expect(header).toEqual(CSV_HEADER.split(","));
    const column = (name: string) => CSV_HEADER.split(",").indexOf(name);
    const adjustments = rows
      .filter((row) => row[column("kind")] === "adjustment")
      .map((row) => [row[column("deal_id")], row[column("amount")], row[column("explanation_summary")]])
      .sort((a, b) => `${a[0]}${a[2]}`.localeCompare(`${b[0]}${b[2]}`));
    const [a, p] = originals.map((l) => l.id);
    const summary = (signed: string, from: number, line: string, was: string, now: string) =>
      `Adjustment ${signed} by admin key: retroactive correction: plan ${planId} version ${from} → ${from + 1} ` +
      `reprices line ${line} from ${was} to ${now}`;
    expect(adjustments).toEqual(
      [
        [approved.id, "1000.00", summary("+1,000.00", 1, a!, "5,000.00", "6,000.00")],
        [approved.id, "-500.00", summary("-500.00", 2, a!, "6,000.00", "5,500.00")],
        [paid.id, "200.00", summary("+200.00", 1, p!, "1,000.00", "1,200.00")],
        [paid.id, "-100.00", summary("-100.00", 2, p!, "1,200.00", "1,100.00")],
      ].sort((x, y) => `${x[0]}${x[2]}`.localeCompare(`${y[0]}${y[2]}`)),
    );
  });
});
