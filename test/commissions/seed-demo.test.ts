import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statement } from "../../src/commissions/index.js";
import type { CompPlan } from "../../src/comp-plans/index.js";
import type { Deal, DealDetail, DealStatus } from "../../src/deals/index.js";
import { type SeedResult, seedDemo } from "../../src/demo/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let first: SeedResult;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  first = await seedDemo(t.ownerCtx());
}, 120_000);
afterAll(() => t.close());

it("seeds a sales team, 3 plans, a SPIFF and their deals in every status, idempotently; never on live", async () => {
  expect(first).toMatchObject({ users: 9, plans: 3, assignments: 6, spiffs: 1, deals: 193, created: 193 });
  for (const status of ["pending", "approved", "rejected", "disputed", "paid"] as const) {
    expect(first.statuses[status], status).toBeGreaterThan(0);
  }
  expect(first.people.map((p) => [p.email, p.role, p.plan])).toEqual([
    ["avery@demo.example", "admin", null],
    ["farah@demo.example", "finance", null],
    ["morgan@demo.example", "manager", null],
    ["sam@demo.example", "rep", "SMB monthly"],
    ["priya@demo.example", "rep", "SMB monthly"],
    ["alex@demo.example", "rep", "AE quarterly"],
    ["jordan@demo.example", "rep", "AE quarterly"],
    ["noah@demo.example", "rep", "AE quarterly"],
    ["elena@demo.example", "rep", "Enterprise yearly"],
  ]);
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
  ).toBe(9);
  await expect(seedDemo({ ...t.ownerCtx(), env: "live" })).rejects.toThrow(/live/);
});

/** Each rep (in the order GET /users lists them) and every period they have a plan line in, as their statements say. */
async function repPeriods(app: TestApp) {
  const a = new Api(app, "admin");
  const reps = ok<Page<User>>(await a.get("/users?role=rep&per_page=100")).data;
  const out = [];
  for (const rep of reps) {
    const csv = await a.get(`/commissions?user_id=${rep.id}&kind=plan`, { accept: "text/csv" });
    const labels = [
      ...new Set(
        csv.body
          .trim()
          .split("\r\n")
          .slice(1)
          .map((row) => row.split(",")[4]!),
      ),
    ].sort();
    const plans = new Set<string>();
    const periods = [];
    for (const period of labels) {
      const statement = ok<Statement>(await a.get(`/users/${rep.id}/statement?period=${period}`));
      expect(statement.plans.length, `${rep.email} ${period}`).toBe(1);
      const plan = statement.plans[0]!;
      plans.add(`${plan.plan_name}|${plan.period_kind}`);
      const lines = statement.lines.filter((l) => l.kind === "plan");
      const cut = lines.filter((l) => (l.explanation as { cap?: { applied: boolean } | null }).cap?.applied);
      expect(cut.every((l) => (l.explanation.summary as string).includes("capped at"))).toBe(true);
      periods.push({
        period,
        ratio: plan.attainment_ratio!,
        ...(cut.length > 0
          ? { capped: true, zeroLine: cut.some((l) => l.amount === 0), plan: statement.totals.plan }
          : {}),
      });
    }
    expect(plans.size, rep.email).toBe(1);
    const [plan, kind] = [...plans][0]!.split("|");
    out.push({ email: rep.email, plan, kind, periods });
  }
  return out;
}

// #28: what a buyer evaluating the console sees. The test clock's today is 2026-11-22.
describe("#28 the demo a buyer believes", () => {
  const api = () => new Api(t, "admin");
  /** Each rep's periods, oldest first, and their attainment ratio in each (current period: so far). */
  const ATTAINMENT: Record<string, { plan: string; kind: string; periods: [string, number][] }> = {
    "sam@demo.example": {
      plan: "SMB monthly",
      kind: "month",
      periods: [
        ["2026-06", 0.92],
        ["2026-07", 1.18],
        ["2026-08", 0.74],
        ["2026-09", 1.41],
        ["2026-10", 1.05],
        ["2026-11", 0.8167],
      ],
    },
    "priya@demo.example": {
      plan: "SMB monthly",
      kind: "month",
      periods: [
        ["2026-06", 0.68],
        ["2026-07", 0.85],
        ["2026-08", 1.12],
        ["2026-09", 0.97],
        ["2026-10", 1.26],
        ["2026-11", 0.8167],
      ],
    },
    "alex@demo.example": {
      plan: "AE quarterly",
      kind: "quarter",
      periods: [
        ["2026-Q1", 1.08],
        ["2026-Q2", 1.72],
        ["2026-Q3", 0.95],
        ["2026-Q4", 0.738],
      ],
    },
    "jordan@demo.example": {
      plan: "AE quarterly",
      kind: "quarter",
      periods: [
        ["2026-Q1", 0.81],
        ["2026-Q2", 1.02],
        ["2026-Q3", 1.24],
        ["2026-Q4", 0.738],
      ],
    },
    "noah@demo.example": {
      plan: "AE quarterly",
      kind: "quarter",
      periods: [
        ["2026-Q1", 1.15],
        ["2026-Q2", 0.88],
        ["2026-Q3", 1.22],
        ["2026-Q4", 0.738],
      ],
    },
    "elena@demo.example": {
      plan: "Enterprise yearly",
      kind: "year",
      periods: [
        ["2023", 0.96],
        ["2024", 1.12],
        ["2025", 1.31],
        ["2026", 0.8966],
      ],
    },
  };

  async function reps(): Promise<User[]> {
    return ok<Page<User>>(await api().get("/users?role=rep&per_page=100")).data;
  }

  it("every rep is on one plan; the plans are monthly, quarterly and yearly; a manager, finance and an admin", async () => {
    const a = api();
    const plans = ok<Page<CompPlan>>(await a.get("/comp-plans?per_page=100")).data;
    const onPlan = new Map<string, CompPlan>();
    for (const plan of plans) {
      const assigned = ok<Page<{ user_id: string }>>(await a.get(`/comp-plans/${plan.id}/assignments?per_page=100`));
      for (const { user_id } of assigned.data) {
        expect(onPlan.has(user_id), user_id).toBe(false);
        onPlan.set(user_id, plan);
      }
    }
    const team = await reps();
    expect(team.map((r) => [r.email, onPlan.get(r.id)?.name, onPlan.get(r.id)?.period]).sort()).toEqual(
      Object.entries(ATTAINMENT)
        .map(([email, r]) => [email, r.plan, r.kind])
        .sort(),
    );
    const manager = ok<Page<User>>(await a.get("/users?role=manager")).data;
    expect(manager.map((m) => m.email)).toEqual(["morgan@demo.example"]);
    expect(team.every((r) => r.manager_id === manager[0]!.id)).toBe(true);
    expect(ok<Page<User>>(await a.get("/users?role=finance")).data.map((u) => u.email)).toEqual(["farah@demo.example"]);
    expect(ok<Page<User>>(await a.get("/users?role=admin")).data.map((u) => u.email)).toEqual(["avery@demo.example"]);
  });

  it("each rep has deals in every period of their history, each period between 40 % and 180 % of quota; one capped quarter", async () => {
    const seen = (await repPeriods(t)).sort((x, y) => x.email.localeCompare(y.email));
    expect(seen.map((r) => [r.email, r.plan, r.kind])).toEqual(
      Object.entries(ATTAINMENT)
        .map(([email, r]) => [email, r.plan, r.kind])
        .sort(),
    );
    for (const rep of seen) {
      expect(
        rep.periods.map((p) => [p.period, p.ratio]),
        rep.email,
      ).toEqual(ATTAINMENT[rep.email]!.periods);
      for (const p of rep.periods) {
        expect(p.ratio, `${rep.email} ${p.period}`).toBeGreaterThanOrEqual(0.4);
        expect(p.ratio, `${rep.email} ${p.period}`).toBeLessThanOrEqual(1.8);
      }
    }
    const capped = seen.flatMap((r) => r.periods.filter((p) => p.capped).map((p) => ({ email: r.email, ...p })));
    // The line that crossed the cap is cut, the later one earns 0.00, and the plan lines sum to the cap.
    expect(capped).toEqual([
      { email: "alex@demo.example", period: "2026-Q2", ratio: 1.72, capped: true, zeroLine: true, plan: 18000 },
    ]);
  });

  it("split deals credit both reps; disputes are open and resolved; a SPIFF pays", async () => {
    const a = api();
    const deals = ok<Page<Deal>>(await a.get("/deals?per_page=100&sort=close_date")).meta.total;
    expect(deals).toBe(193);
    const split: DealDetail[] = [];
    for (let page = 1; page <= 2; page++) {
      for (const deal of ok<Page<Deal>>(await a.get(`/deals?per_page=100&page=${page}`)).data) {
        if (deal.splits.length === 2) split.push(ok<DealDetail>(await a.get(`/deals/${deal.id}`)));
      }
    }
    expect(split.map((d) => d.splits.map((s) => s.percent))).toEqual([
      [60, 40],
      [60, 40],
      [60, 40],
    ]);
    for (const deal of split) {
      for (const { user_id } of deal.splits) {
        const own = deal.commissions.filter((l) => l.kind === "plan" && l.user_id === user_id);
        expect(own.length, deal.opportunity_name).toBe(1);
        expect(own[0]!.amount, deal.opportunity_name).toBeGreaterThan(0);
      }
    }
    expect(ok<Page<Dispute>>(await a.get("/disputes?status=open")).meta.total).toBe(3);
    expect(ok<Page<Dispute>>(await a.get("/disputes?status=resolved")).meta.total).toBe(7);
    for (const status of ["pending", "approved", "rejected", "disputed", "paid"]) {
      expect(ok<Page<Deal>>(await a.get(`/deals?status=${status}`)).meta.total, status).toBe(
        first.statuses[status as DealStatus],
      );
    }
    expect(ok<Page<{ kind: string }>>(await a.get("/commissions?kind=spiff")).meta.total).toBeGreaterThan(0);
  });
});

// Seeded on the first day of a month, a quarter and a year, every current period has begun with its first
// deals, and every period still holds between 40 % and 180 % of quota.
describe("#28 the demo seeded on New Year's Day", () => {
  let jan: TestApp;
  beforeAll(async () => {
    jan = await createTestApp({ clock: new TestClock(Date.parse("2027-01-01T08:00:00.000Z")) });
    await seedDemo(jan.ownerCtx());
  }, 120_000);
  afterAll(() => jan.close());

  it("every rep's periods, the current one included, are between 40 % and 180 % of quota", async () => {
    const seen = await repPeriods(jan);
    const HISTORY: Record<string, string[]> = {
      month: ["2026-08", "2026-09", "2026-10", "2026-11", "2026-12", "2027-01"],
      quarter: ["2026-Q2", "2026-Q3", "2026-Q4", "2027-Q1"],
      year: ["2024", "2025", "2026", "2027"],
    };
    for (const rep of seen) {
      expect(
        rep.periods.map((p) => p.period),
        rep.email,
      ).toEqual(HISTORY[rep.kind!]);
      for (const p of rep.periods) {
        expect(p.ratio, `${rep.email} ${p.period}`).toBeGreaterThanOrEqual(0.4);
        expect(p.ratio, `${rep.email} ${p.period}`).toBeLessThanOrEqual(1.8);
      }
    }
    // Alex's big quarter is always two before the current one.
    const capped = seen.flatMap((r) => r.periods.filter((p) => p.capped).map((p) => ({ email: r.email, ...p })));
    expect(capped).toEqual([
      { email: "alex@demo.example", period: "2026-Q3", ratio: 1.72, capped: true, zeroLine: true, plan: 18000 },
    ]);
  });
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
    // The demo cancels no deal; a cancelled one would show this trail.
    cancelled: {
      audits: ["deal.create", "deal.approve", "deal.cancel"],
      events: ["deal.created", "deal.approved", "deal.cancelled"],
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
