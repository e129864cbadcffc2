import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission, Statement } from "../../src/commissions/index.js";
import { createAdjustment, type DealDetail } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, assign, createDeal, createPlan, eventsOf, getDeal, ok, repOnPlan } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

/** POST /commissions/adjustments (API.md §4; §5 rules 6–8). The clock says 2026-11-22 (Q4). */

let t: TestApp;
let admin: Api;
let adminKey: { id: string; key: string };
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  admin = new Api(t, "admin");
  adminKey = await t.key("admin", "Finance admin");
});
afterAll(() => t.close());

const adjust = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/commissions/adjustments",
    headers: { ...bearer(adminKey.key), ...headers },
    payload: body,
  });

/** A deal of 10,000 ARR on a tiered quarterly plan at 10 %: total_commission 1000. */
async function dealOnPlan(status: "pending" | "approved" | "paid" = "pending", planOverrides = {}) {
  const { user } = await repOnPlan(admin, planOverrides);
  const deal = await createDeal(admin, user.id);
  if (status !== "pending") ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
  if (status === "paid") ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
  return deal;
}

const auditOf = (ids: string[]) =>
  t.db.db
    .selectFrom("audit_events")
    .select(["action", "resource", "resource_id", "actor_id", "before", "after"])
    .where("resource_id", "in", ids)
    .orderBy("id")
    .execute();

const linesOf = (dealId: string) =>
  t.db.db.selectFrom("commission_lines").select("id").where("deal_id", "=", dealId).execute();

describe("POST /commissions/adjustments", () => {
  it("201: an approved, locked adjustment line; the deal's total moves; event and audit rows", async () => {
    const deal = await dealOnPlan("approved");
    const res = await adjust({ deal_id: deal.id, user_id: deal.owner_id, amount: 150.25, reason: "Q3 SPIFF missed" });
    const line = ok<Commission>(res, 201);
    expect(line).toEqual({
      id: expect.stringMatching(/^com_/),
      deal_id: deal.id,
      user_id: deal.owner_id,
      plan_id: null,
      plan_version: null,
      spiff_id: null,
      kind: "adjustment",
      period: "2026-Q4",
      amount: 150.25,
      status: "approved",
      locked: true,
      explanation: {
        summary: "Adjustment +150.25 by Finance admin: Q3 SPIFF missed",
        reason: "Q3 SPIFF missed",
        author: { key_id: adminKey.id, name: "Finance admin" },
        period: "2026-Q4",
        amount: 150.25,
      },
      calculated_at: "2026-11-22T10:00:00.000Z",
      currency: "USD",
      payout_run_id: null,
      draw_id: null,
    });
    expect(ok<Commission>(await admin.get(`/commissions/${line.id}`))).toEqual(line);
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission]).toEqual(["approved", 1150.25]);
    expect(after.commissions.map((c) => [c.kind, c.amount, c.status])).toEqual([
      ["plan", 1000, "approved"],
      ["adjustment", 150.25, "approved"],
    ]);
    const events = (await eventsOf(t, "commission.calculated")).filter((e) => e.object.id === line.id);
    expect(events).toEqual([{ object: line, previous_amount: null }]);
    const audits = await auditOf([line.id, deal.id]);
    const adjustRows = audits.filter((a) => a.action.endsWith(".adjust"));
    expect(adjustRows.map((a) => [a.action, a.resource, a.resource_id, a.actor_id])).toEqual([
      ["commission.adjust", "commission", line.id, adminKey.id],
      ["deal.adjust", "deal", deal.id, adminKey.id],
    ]);
    expect(adjustRows[0]!.after).toEqual(line);
    expect([
      (adjustRows[1]!.before as DealDetail).total_commission,
      (adjustRows[1]!.after as DealDetail).total_commission,
    ]).toEqual([1000, 1150.25]);
  });

  it("a negative amount claws back; the explanation of an owner-CLI adjustment names owner-cli", async () => {
    const deal = await dealOnPlan("approved");
    const line = await createAdjustment(t.ownerCtx(), {
      deal_id: deal.id,
      user_id: deal.owner_id,
      amount: "-1234.5",
      reason: "Refunded, partly",
    });
    expect([line.amount, line.status, line.locked]).toEqual([-1234.5, "approved", true]);
    expect(line.explanation).toEqual({
      summary: "Adjustment -1,234.50 by owner-cli: Refunded, partly",
      reason: "Refunded, partly",
      author: { key_id: null, name: "owner-cli" },
      period: "2026-Q4",
      amount: -1234.5,
    });
    expect((await getDeal(admin, deal.id)).total_commission).toBe(-234.5);
  });

  it("period: as given; else the user's plan period containing today; else today's calendar quarter", async () => {
    const monthly = await dealOnPlan("approved", { period: "month" });
    const base = { deal_id: monthly.id, user_id: monthly.owner_id, amount: 10, reason: "r" };
    expect(ok<Commission>(await adjust(base), 201).period).toBe("2026-11");
    expect(ok<Commission>(await adjust({ ...base, period: "2026-Q3" }), 201).period).toBe("2026-Q3");
    expect(ok<Commission>(await adjust({ ...base, period: "2026" }), 201).period).toBe("2026");

    const yearly = await dealOnPlan("pending", { period: "year" });
    expect(ok<Commission>(await adjust({ ...base, deal_id: yearly.id, user_id: yearly.owner_id }), 201).period).toBe(
      "2026",
    );

    const noPlan = await createUser(t);
    const bare = await createDeal(admin, noPlan.id);
    expect(ok<Commission>(await adjust({ ...base, deal_id: bare.id, user_id: noPlan.id }), 201).period).toBe("2026-Q4");

    // A plan in another currency is not the user's plan for this deal (§5 rule 1).
    const eur = await dealOnPlan("pending", { period: "month", currency: "EUR" });
    expect(ok<Commission>(await adjust({ ...base, deal_id: eur.id, user_id: eur.owner_id }), 201).period).toBe(
      "2026-Q4",
    );
  });

  it("any credited user may get one; on a paid deal it stays approved (still to pay)", async () => {
    const { user } = await repOnPlan(admin);
    const partner = await createUser(t);
    const deal = await createDeal(admin, user.id, {
      splits: [
        { user_id: user.id, percent: 60 },
        { user_id: partner.id, percent: 40 },
      ],
    });
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
    const line = ok<Commission>(
      await adjust({ deal_id: deal.id, user_id: partner.id, amount: 75, reason: "SE bonus" }),
      201,
    );
    expect([line.user_id, line.status, line.locked]).toEqual([partner.id, "approved", true]);
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission]).toEqual(["paid", 675]);
  });

  it("on a pending deal: stays approved through recalculations, then approve and mark-paid carry it to paid", async () => {
    const deal = await dealOnPlan("pending");
    const line = ok<Commission>(
      await adjust({ deal_id: deal.id, user_id: deal.owner_id, amount: 99.99, reason: "r" }),
      201,
    );
    const edited = ok<DealDetail>(await admin.patch(`/deals/${deal.id}`, { arr_amount: 20000 }));
    expect(edited.total_commission).toBe(2099.99);
    expect(edited.commissions.map((c) => [c.kind, c.amount, c.status, c.locked])).toEqual([
      ["plan", 2000, "pending", false],
      ["adjustment", 99.99, "approved", true],
    ]);
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
    const paid = ok<DealDetail>(await admin.post(`/deals/${deal.id}/mark-paid`));
    expect(paid.commissions.map((c) => [c.id === line.id, c.status])).toEqual([
      [false, "paid"],
      [true, "paid"],
    ]);
    expect(paid.total_commission).toBe(2099.99);
  });
});

describe("adjustments count in totals, never in attainment or caps (§5 rule 7)", () => {
  it("a capped bucket: the later deal's cut ignores the adjustment; recalculation leaves it alone", async () => {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1, cap_per_period: 1500 });
    const first = await createDeal(admin, user.id, { close_date: "2026-07-01" });
    ok<Commission>(
      await adjust({ deal_id: first.id, user_id: user.id, amount: 400, reason: "r", period: "2026-Q3" }),
      201,
    );
    const second = await createDeal(admin, user.id, { close_date: "2026-07-20" });
    expect((await getDeal(admin, second.id)).total_commission).toBe(500);
    ok<DealDetail>(await admin.patch(`/deals/${first.id}`, { arr_amount: 12000 }));
    expect((await getDeal(admin, first.id)).total_commission).toBe(1600);
    expect((await getDeal(admin, second.id)).total_commission).toBe(300);
    const statement = ok<Statement>(await admin.get(`/users/${user.id}/statement?period=2026-Q3`));
    expect(statement.totals).toEqual({
      plan: 1500,
      spiff: 0,
      override: 0,
      adjustment: 400,
      clawback: 0,
      draw: 0,
      total: 1900,
    });
  });

  it("tiered attainment counts credit only; the statement and both CSVs list the adjustment", async () => {
    const { user, plan } = await repOnPlan(admin);
    const first = await createDeal(admin, user.id, { close_date: "2026-07-01", arr_amount: 90000 });
    ok<DealDetail>(await admin.post(`/deals/${first.id}/approve`));
    const body = {
      deal_id: first.id,
      user_id: user.id,
      amount: -250.5,
      reason: "clawback, duplicate",
      period: "2026-Q3",
    };
    const line = ok<Commission>(await adjust(body), 201);
    const second = await createDeal(admin, user.id, { close_date: "2026-07-20", arr_amount: 30000 });
    expect((await getDeal(admin, second.id)).total_commission).toBe(4000);
    const statement = ok<Statement>(await admin.get(`/users/${user.id}/statement?period=2026-Q3`));
    expect(statement.plans).toEqual([
      {
        plan_id: plan.id,
        plan_name: plan.name,
        plan_version: 1,
        currency: "USD",
        period_kind: "quarter",
        quota: 100000,
        attainment: 120000,
        attainment_ratio: 1.2,
        tiers: [
          { from_attainment: 0, rate: 0.1 },
          { from_attainment: 1, rate: 0.15 },
        ],
        current_rate: 0.15,
        cap_per_period: null,
        earned: 13000,
        cap_reached: false,
        next_tier: null,
      },
    ]);
    expect(statement.lines.map((l) => [l.kind, l.amount])).toEqual([
      ["plan", 9000],
      ["adjustment", -250.5],
      ["plan", 4000],
    ]);
    expect(statement.totals).toEqual({
      plan: 13000,
      spiff: 0,
      override: 0,
      adjustment: -250.5,
      clawback: 0,
      draw: 0,
      total: 12749.5,
    });

    const row =
      `${line.id},${first.id},${user.id},adjustment,2026-Q3,-250.50,approved,,,2026-11-22T10:00:00.000Z,` +
      `"Adjustment -250.50 by Finance admin: clawback, duplicate",USD\r\n`;
    const csv = await admin.get(`/users/${user.id}/statement?period=2026-Q3`, { accept: "text/csv" });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split("\r\n")[2]).toBe(row.slice(0, -2));
    const listed = await admin.get(`/commissions?kind=adjustment&user_id=${user.id}`, { accept: "text/csv" });
    expect(listed.body).toBe(
      `\ufeffid,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency\r\n${row}`,
    );
  });
});

describe("refusals write nothing", () => {
  async function expectNothingWritten(dealId: string, run: () => Promise<void>) {
    const lines = (await linesOf(dealId)).length;
    const audits = (await auditOf([dealId])).length;
    const events = (await eventsOf(t, "commission.calculated")).length;
    await run();
    expect((await linesOf(dealId)).length).toBe(lines);
    expect((await auditOf([dealId])).length).toBe(audits);
    expect((await eventsOf(t, "commission.calculated")).length).toBe(events);
  }

  it("a rejected deal → 409 invalid_transition naming its status", async () => {
    const deal = await dealOnPlan("pending");
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/reject`, { reason: "duplicate" }));
    await expectNothingWritten(deal.id, async () => {
      const res = await adjust({ deal_id: deal.id, user_id: deal.owner_id, amount: 10, reason: "r" });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toMatchObject({
        code: "invalid_transition",
        message: `Deal ${deal.id} is rejected; a rejected deal takes no adjustment (edit it to resubmit it first)`,
      });
    });
    expect((await getDeal(admin, deal.id)).total_commission).toBe(0);
  });

  it("unknown deal, unknown user, a user not on the deal → 422 naming the field", async () => {
    const deal = await dealOnPlan("approved");
    const stranger = await createUser(t);
    const base = { deal_id: deal.id, user_id: deal.owner_id, amount: 10, reason: "r" };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ deal_id: unknownId("deal") }, "deal_id", `deal ${unknownId("deal")} does not exist`],
      [{ user_id: unknownId("usr") }, "user_id", `user ${unknownId("usr")} does not exist`],
      [
        { user_id: stranger.id },
        "user_id",
        `user ${stranger.id} is neither the owner of deal ${deal.id} nor credited on it`,
      ],
    ];
    await expectNothingWritten(deal.id, async () => {
      for (const [change, param, message] of cases) {
        const res = await adjust({ ...base, ...change });
        expect(res.statusCode, res.body).toBe(422);
        expect(errorOf(res)).toMatchObject({ code: "validation_error", details: [{ param, message }] });
      }
    });
  });

  it("invalid bodies → 422 naming the field", async () => {
    const deal = await dealOnPlan("approved");
    const base = { deal_id: deal.id, user_id: deal.owner_id, amount: 10, reason: "r" };
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0 }, "amount"],
      [{ amount: 10.005 }, "amount"],
      [{ amount: "10" }, "amount"],
      [{ amount: -1_000_000_000_000 }, "amount"],
      [{ reason: "   " }, "reason"],
      [{ reason: undefined }, "reason"],
      [{ period: "2026-Q5" }, "period"],
      [{ status: "paid" }, "status"],
      [{ deal_id: undefined }, "deal_id"],
    ];
    await expectNothingWritten(deal.id, async () => {
      for (const [change, param] of cases) {
        const res = await adjust({ ...base, ...change });
        expect(res.statusCode, JSON.stringify(change)).toBe(422);
        expect(errorOf(res).details?.map((d) => d.param)).toContain(param);
      }
      const writer = await new Api(t, "write").post("/commissions/adjustments", base);
      expect([writer.statusCode, errorOf(writer).code]).toEqual([403, "forbidden"]);
    });
  });
});

describe("DELETE /deals/{id} of a deal with adjustment lines", () => {
  it("a pending deal with approved adjustment lines → 409 conflict naming them, nothing changed", async () => {
    const deal = await dealOnPlan("pending");
    const base = { deal_id: deal.id, user_id: deal.owner_id, reason: "r" };
    const first = ok<Commission>(await adjust({ ...base, amount: 10 }), 201);
    const second = ok<Commission>(await adjust({ ...base, amount: -2.5 }), 201);
    const writer = new Api(t, "write");
    const before = await getDeal(admin, deal.id);
    const audits = (await auditOf([deal.id])).length;
    const events = (await t.db.db.selectFrom("events").select("id").execute()).length;
    const res = await writer.del(`/deals/${deal.id}`);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({
      code: "conflict",
      message:
        `Deal ${deal.id} has had adjustment lines (${first.id}, ${second.id}); they are money records and are ` +
        "never deleted, so neither is the deal. Reject the deal instead: that voids its lines.",
    });
    expect(await getDeal(admin, deal.id)).toEqual(before);
    expect(before.total_commission).toBe(1007.5);
    expect((await auditOf([deal.id])).length).toBe(audits);
    expect((await t.db.db.selectFrom("events").select("id").execute()).length).toBe(events);
  });
});

describe("#13.19 a deal that has ever had an adjustment line is never deleted", () => {
  const base = (deal: { id: string; owner_id: string }) => ({ deal_id: deal.id, user_id: deal.owner_id, reason: "r" });
  // Every way a deal reaches a deletable status (pending or rejected) after an adjustment line was written.
  const histories: [string, (deal: { id: string; owner_id: string }) => Promise<void>, string][] = [
    ["pending", async () => {}, "approved"],
    [
      "rejected",
      async (d) => {
        ok<DealDetail>(await admin.post(`/deals/${d.id}/reject`, { reason: "duplicate" }));
      },
      "void",
    ],
    [
      "rejected, then edited back to pending",
      async (d) => {
        ok<DealDetail>(await admin.post(`/deals/${d.id}/reject`, { reason: "duplicate" }));
        ok<DealDetail>(await admin.patch(`/deals/${d.id}`, { opportunity_name: "Resubmitted" }));
      },
      "void",
    ],
  ];

  for (const [status, reach, lineStatus] of histories) {
    it(`${status}: DELETE → 409 conflict naming its adjustment lines, which stay readable`, async () => {
      const deal = await dealOnPlan("pending");
      const first = ok<Commission>(await adjust({ ...base(deal), amount: 10 }), 201);
      const second = ok<Commission>(await adjust({ ...base(deal), amount: -2.5 }), 201);
      await reach(deal);
      const before = await getDeal(admin, deal.id);
      const audits = (await auditOf([deal.id])).length;
      const events = (await t.db.db.selectFrom("events").select("id").execute()).length;

      const res = await new Api(t, "write").del(`/deals/${deal.id}`);
      expect([res.statusCode, errorOf(res).code]).toEqual([409, "conflict"]);
      expect(errorOf(res).message).toBe(
        `Deal ${deal.id} has had adjustment lines (${first.id}, ${second.id}); they are money records and are ` +
          "never deleted, so neither is the deal." +
          (before.status === "pending" ? " Reject the deal instead: that voids its lines." : ""),
      );
      expect(await getDeal(admin, deal.id)).toEqual(before);
      expect((await auditOf([deal.id])).length).toBe(audits);
      expect((await t.db.db.selectFrom("events").select("id").execute()).length).toBe(events);
      const listed = ok<Page<Commission>>(await admin.get(`/commissions?deal_id=${deal.id}&kind=adjustment`));
      expect(
        listed.data.map((l: { id: string; status: string; amount: number }) => [l.id, l.status, l.amount]),
      ).toEqual([
        [second.id, lineStatus, -2.5],
        [first.id, lineStatus, 10],
      ]);
      expect(ok<Commission>(await admin.get(`/commissions/${first.id}`)).status).toBe(lineStatus);
    });
  }

  it("a rejected deal that never had an adjustment line is deleted (204), its lines with it", async () => {
    const deal = await dealOnPlan("pending");
    ok<DealDetail>(await admin.post(`/deals/${deal.id}/reject`, { reason: "duplicate" }));
    expect((await admin.del(`/deals/${deal.id}`)).statusCode).toBe(204);
    expect(await linesOf(deal.id)).toEqual([]);
  });
});

describe("Idempotency-Key", () => {
  it("a replay returns the stored 201 and adds no second line; another body with the key → 422", async () => {
    const deal = await dealOnPlan("approved");
    const body = { deal_id: deal.id, user_id: deal.owner_id, amount: 42, reason: "retry-safe" };
    const first = await adjust(body, { "idempotency-key": "adj-1" });
    expect(first.statusCode).toBe(201);
    const again = await adjust(
      { reason: "retry-safe", amount: 42, user_id: deal.owner_id, deal_id: deal.id },
      {
        "idempotency-key": "adj-1",
      },
    );
    expect([again.statusCode, again.headers["idempotent-replayed"]]).toEqual([201, "true"]);
    expect(again.json()).toEqual(first.json());
    const other = await adjust({ ...body, amount: 43 }, { "idempotency-key": "adj-1" });
    expect([other.statusCode, errorOf(other).code]).toEqual([422, "idempotency_key_reused"]);
    const after = await getDeal(admin, deal.id);
    expect(after.commissions.filter((c) => c.kind === "adjustment")).toHaveLength(1);
    expect(after.total_commission).toBe(1042);
  });
});

describe("an assignment change later", () => {
  it("never moves an adjustment's period or amount", async () => {
    const user = await createUser(t);
    const deal = await createDeal(admin, user.id);
    const line = ok<Commission>(await adjust({ deal_id: deal.id, user_id: user.id, amount: 5, reason: "r" }), 201);
    const plan = await createPlan(admin, { period: "month" });
    await assign(admin, plan.id, user.id);
    const after = await getDeal(admin, deal.id);
    expect(after.commissions.find((c) => c.id === line.id)).toEqual(line);
    expect(after.total_commission).toBe(1005);
  });
});

describe("concurrent adjustments (parallel connections on PostgreSQL)", () => {
  it("10 at once on one deal: every one is written and the total is exact", async () => {
    const deal = await dealOnPlan("approved");
    const amounts = [0.01, 0.02, 0.03, 10, 20.5, -5.25, 100, 0.99, 1234.56, -0.01];
    const results = await Promise.all(
      amounts.map((amount, i) =>
        new Api(t, "admin").post("/commissions/adjustments", {
          deal_id: deal.id,
          user_id: deal.owner_id,
          amount,
          reason: `batch ${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const after = await getDeal(admin, deal.id);
    expect(after.total_commission).toBe(2360.85);
    expect(after.commissions.filter((c) => c.kind === "adjustment")).toHaveLength(10);
  });

  it("racing a reject of the pending deal: the adjustment is voided with it or refused (409)", async () => {
    const deal = await dealOnPlan("pending");
    const [adjusted, rejected] = await Promise.all([
      new Api(t, "admin").post("/commissions/adjustments", {
        deal_id: deal.id,
        user_id: deal.owner_id,
        amount: 50,
        reason: "race",
      }),
      new Api(t, "admin").post(`/deals/${deal.id}/reject`, { reason: "race" }),
    ]);
    expect(rejected.statusCode).toBe(200);
    expect([201, 409]).toContain(adjusted.statusCode);
    const after = await getDeal(admin, deal.id);
    expect([after.status, after.total_commission]).toEqual(["rejected", 0]);
    expect(after.commissions.every((c) => c.status === "void")).toBe(true);
    expect(after.commissions).toHaveLength(adjusted.statusCode === 201 ? 2 : 1);
  });
});
