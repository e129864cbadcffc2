import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AssignmentInput,
  calculateOverrideLines,
  type DealInput,
  type OverrideContext,
  type PeriodKind,
  type PlanInput,
  type ReportingLineInput,
} from "../../src/commissions/engine/index.js";
import { lockForRecalc, recalculate } from "../../src/commissions/recalc/index.js";
import { newId } from "../../src/ids.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/*
 * API.md §16 override lines against an oracle of the test's own: random organisations (levels 0–6, so
 * chains 7 deep, one beyond the deepest override level), reporting histories that move people inside
 * 2026-Q1 (1–3 spans a user, spans with no manager, spans left out), override plans with 1–5 levels
 * and rates of up to 6 decimals assigned to random managers over random dates, deals of 1–3 credited
 * users. The oracle walks each user's history day by day, in exact BigInt rationals, and rounds half
 * up to the cent (src/money/fixed.ts `roundCents`: half away from zero; every amount here is ≥ 0).
 */

// ---- exact rationals ----

interface Q {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};
const q = (n: bigint, d = 1n): Q => {
  const g = gcd(n, d);
  return { n: n / g, d: d / g };
};
const ZERO: Q = q(0n);
const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
const cmp = (a: Q, b: Q): number => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const minQ = (a: Q, b: Q): Q => (cmp(a, b) <= 0 ? a : b);

/** A decimal text ("1234.5678", "0", "7") as an exact rational; anything else fails the test. */
function dec(text: string): Q {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a plain non-negative decimal: "${text}"`);
  const fraction = m[2] ?? "";
  return q(BigInt(m[1]! + fraction), 10n ** BigInt(fraction.length));
}

/** Cents, half up (x ≥ 0). */
const roundCents = (x: Q): bigint => (2n * x.n * 100n + x.d) / (2n * x.d);
const isHalfCent = (x: Q): boolean => (x.n * 100n * 2n) % x.d === 0n && (x.n * 100n) % x.d !== 0n;
const centsText = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, "0")}`;
/** Scaled integer → shortest decimal text: (12345, 2) → "123.45", (500000, 6) → "0.5". */
function scaledText(value: number, places: number): string {
  const unit = 10 ** places;
  const whole = Math.floor(value / unit);
  const fraction = String(value % unit)
    .padStart(places, "0")
    .replace(/0+$/, "");
  return fraction === "" ? String(whole) : `${whole}.${fraction}`;
}

// ---- the calendar: day 0 = 2026-01-01, day 89 = 2026-03-31 ----

const QUARTER_DAYS = 90;
const BEFORE = -365; // 2025-01-01: a line or assignment in force since before the quarter
const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);

function periodLabel(kind: PeriodKind, day: number): string {
  const date = dateOf(day);
  const month = Number(date.slice(5, 7));
  if (kind === "month") return date.slice(0, 7);
  if (kind === "quarter") return `${date.slice(0, 4)}-Q${Math.ceil(month / 3)}`;
  return date.slice(0, 4);
}

// ---- scenarios ----

interface Span {
  from: number;
  to: number | null;
  manager: number | null;
}

interface PlanSpec {
  levels: { depth: number; rate: string }[];
  period: PeriodKind;
  status: "active" | "draft" | "archived";
  from: number;
  to: number | null;
  version: number;
}

interface AssignmentSpec {
  plan: number;
  from: number;
  to: number | null;
}

interface DealSpec {
  cents: number;
  splits: { user: number; percent: string }[];
  day: number;
}

interface Scenario {
  users: number;
  /** Each user's level: a manager is always on a lower level, so every date's tree is acyclic. */
  levels: number[];
  history: Span[][];
  plans: PlanSpec[];
  assignments: AssignmentSpec[][];
  deals: DealSpec[];
}

/** True `percent` % of the time (unbiased: fast-check favours small integers otherwise). */
const chance = (percent: number) => fc.noBias(fc.integer({ min: 0, max: 99 })).map((x) => x < percent);
/** A day of the quarter: often its first or last days (fast-check's bias), as often anywhere. */
const day = fc.oneof(
  fc.integer({ min: 0, max: QUARTER_DAYS - 1 }),
  fc.noBias(fc.integer({ min: 0, max: QUARTER_DAYS - 1 })),
);
const length = (max: number) => fc.noBias(fc.integer({ min: 0, max }));

/** Raw span choices of one user; `buildHistory` turns them into spans once levels are known. */
const spansRaw = fc.record({
  cuts: fc.uniqueArray(fc.noBias(fc.integer({ min: 1, max: QUARTER_DAYS - 1 })), { maxLength: 2 }),
  picks: fc.array(fc.record({ none: chance(10), omit: chance(5), skip: chance(20), r: fc.nat() }), {
    minLength: 3,
    maxLength: 3,
  }),
});
type SpansRaw = typeof spansRaw extends fc.Arbitrary<infer T> ? T : never;

function buildHistory(raw: SpansRaw[], levels: number[]): Span[][] {
  return raw.map((user, i) => {
    const starts = [BEFORE, ...[...user.cuts].sort((a, b) => a - b)];
    // Usually a manager one level up (deep chains), sometimes one further up (a skip-level line).
    const lower = levels.flatMap((level, j) => (level < levels[i]! ? [j] : []));
    const top = Math.max(-1, ...lower.map((j) => levels[j]!));
    const next = lower.filter((j) => levels[j] === top);
    const spans: Span[] = [];
    starts.forEach((from, k) => {
      const pick = user.picks[k]!;
      if (pick.omit) return; // no line at all on those days: no manager either
      const candidates = pick.skip ? lower : next;
      const manager = pick.none || candidates.length === 0 ? null : candidates[pick.r % candidates.length]!;
      spans.push({ from, to: k + 1 < starts.length ? starts[k + 1]! - 1 : null, manager });
    });
    return spans;
  });
}

const rate = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map((n) => scaledText(n, 6)),
  // Coarse rates land whole products on half a cent (the rounding mode matters).
  fc.constantFrom("0.5", "0.05", "0.005", "0.25", "0.125", "0.015", "1"),
  fc.integer({ min: 0, max: 10_000_000 }).map((n) => scaledText(n, 6)),
);

const planArb: fc.Arbitrary<PlanSpec> = fc
  .record({
    depths: fc.noBias(fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 })),
    rates: fc.array(rate, { minLength: 5, maxLength: 5 }),
    period: fc.constantFrom<PeriodKind>("month", "quarter", "year"),
    status: fc.oneof(
      { weight: 8, arbitrary: fc.constant("active" as const) },
      { weight: 1, arbitrary: fc.constantFrom("draft" as const, "archived" as const) },
    ),
    from: fc.oneof({ weight: 3, arbitrary: fc.constant(BEFORE) }, { weight: 1, arbitrary: day }),
    length: fc.option(length(120), { freq: 3 }),
    version: fc.integer({ min: 1, max: 3 }),
  })
  .map((g) => {
    const from = g.from;
    return {
      levels: [...g.depths].sort((a, b) => a - b).map((depth, i) => ({ depth, rate: g.rates[i]! })),
      period: g.period,
      status: g.status,
      from,
      to: g.length === null ? null : Math.max(from, 0) + g.length,
      version: g.version,
    };
  });

/** One user's assignments to override plans, never overlapping (one in force per kind, §16). */
const assignmentsArb = (plans: number): fc.Arbitrary<AssignmentSpec[]> =>
  fc
    .array(
      fc.record({
        plan: fc.integer({ min: 0, max: plans - 1 }),
        gap: fc.option(length(60), { freq: 2 }),
        length: fc.option(length(90), { freq: 2 }),
      }),
      { minLength: 1, maxLength: 2 },
    )
    .map((raw) => {
      const out: AssignmentSpec[] = [];
      let next = BEFORE;
      for (const a of raw) {
        const from = a.gap === null ? next : Math.max(next, 0) + a.gap;
        const to = a.length === null ? null : Math.max(from, 0) + a.length;
        out.push({ plan: a.plan, from, to });
        if (to === null) break;
        next = to + 1;
      }
      return out;
    });

const amountCents = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }), // up to 10,000.00
  fc.integer({ min: 1, max: 10_000_000_000 }), // up to 100,000,000.00
);

const dealArb = (users: number): fc.Arbitrary<DealSpec> =>
  fc
    .record({
      cents: amountCents,
      who: fc.uniqueArray(fc.noBias(fc.integer({ min: 0, max: users - 1 })), {
        minLength: 1,
        maxLength: Math.min(3, users),
      }),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 2, maxLength: 2 }),
      day,
    })
    .map((g) => {
      // Percents in ten-thousandths summing to exactly 1,000,000 (= 100 %).
      const points = [0, ...g.cuts.slice(0, g.who.length - 1).sort((a, b) => a - b), 1_000_000];
      return {
        cents: g.cents,
        splits: g.who.map((user, i) => ({ user, percent: scaledText(points[i + 1]! - points[i]!, 4) })),
        day: g.day,
      };
    });

function scenarioArb(sizes: { users: [number, number]; deals: number; histories: number }) {
  return fc.integer({ min: sizes.users[0], max: sizes.users[1] }).chain((users) =>
    fc
      .record({
        levels: fc.array(fc.noBias(fc.integer({ min: 0, max: 6 })), { minLength: users, maxLength: users }),
        // Half the organisations have every level 0–6 filled: chains as deep as they go.
        ladder: fc.boolean(),
        histories: fc.array(fc.array(spansRaw, { minLength: users, maxLength: users }), {
          minLength: sizes.histories,
          maxLength: sizes.histories,
        }),
        plans: fc.array(planArb, { minLength: 1, maxLength: 3 }),
        deals: fc.noBias(fc.array(dealArb(users), { minLength: 1, maxLength: sizes.deals })),
      })
      .map((g) => ({ ...g, levels: g.levels.map((level, i) => (g.ladder && i < 7 ? 6 - i : level)) }))
      .chain((g) =>
        fc
          .array(
            fc.oneof({ weight: 3, arbitrary: assignmentsArb(g.plans.length) }, fc.constant<AssignmentSpec[]>([])),
            {
              minLength: users,
              maxLength: users,
            },
          )
          .map((assignments) => ({
            scenarios: g.histories.map(
              (h): Scenario => ({
                users,
                levels: g.levels,
                history: buildHistory(h, g.levels),
                plans: g.plans,
                assignments,
                deals: g.deals,
              }),
            ),
          })),
      ),
  );
}

// ---- the oracle ----

interface ExpectedLevel {
  depth: number;
  rate: Q;
  users: { user: number; credit: Q }[];
  credit: Q;
  commission: Q;
}

interface ExpectedLine {
  deal: number;
  manager: number;
  plan: number;
  period: string;
  levels: ExpectedLevel[];
  unrounded: Q;
  cents: bigint;
}

const inForce = (from: number, to: number | null, d: number) => from <= d && (to === null || d <= to);

/** Every override line of every deal, from the scenario alone. */
function oracle(s: Scenario): ExpectedLine[] {
  // Each user's manager on each day of the quarter, filled span by span (no line: null).
  const managerOn: (number | null)[][] = s.history.map((spans) => {
    const days = new Array<number | null>(QUARTER_DAYS).fill(null);
    for (const span of spans) {
      const last = span.to === null ? QUARTER_DAYS - 1 : Math.min(span.to, QUARTER_DAYS - 1);
      for (let d = Math.max(span.from, 0); d <= last; d++) days[d] = span.manager;
    }
    return days;
  });
  const lines: ExpectedLine[] = [];
  s.deals.forEach((deal, dealIndex) => {
    const arr = q(BigInt(deal.cents), 100n);
    // Who is above each credited user that day: above[k] = the manager k + 1 levels up.
    const credits = deal.splits.map((split) => {
      const above: number[] = [];
      for (let m = managerOn[split.user]![deal.day]!; m !== null; m = managerOn[m]![deal.day]!) above.push(m);
      return { user: split.user, credit: mul(arr, q(dec(split.percent).n, dec(split.percent).d * 100n)), above };
    });
    for (let manager = 0; manager < s.users; manager++) {
      const held = s.assignments[manager]!.filter((a) => inForce(a.from, a.to, deal.day));
      expect(held.length).toBeLessThanOrEqual(1);
      const plan = held[0] ? s.plans[held[0].plan]! : null;
      if (plan === null || plan.status !== "active" || !inForce(plan.from, plan.to, deal.day)) continue;
      let reached = false;
      let unrounded = ZERO;
      const levels = plan.levels.map((level) => {
        const users = credits
          .filter((c) => c.above[level.depth - 1] === manager)
          .map((c) => ({ user: c.user, credit: c.credit }))
          .sort((a, b) => a.user - b.user);
        if (users.length > 0) reached = true;
        const credit = minQ(
          users.reduce((sum, u) => add(sum, u.credit), ZERO),
          arr,
        );
        const commission = mul(credit, dec(level.rate));
        unrounded = add(unrounded, commission);
        return { depth: level.depth, rate: dec(level.rate), users, credit, commission };
      });
      if (!reached) continue;
      const plansIndex = held[0]!.plan;
      lines.push({
        deal: dealIndex,
        manager,
        plan: plansIndex,
        period: periodLabel(plan.period, deal.day),
        levels,
        unrounded,
        cents: roundCents(unrounded),
      });
    }
  });
  return lines;
}

// ---- what a scenario is in the engine's (and the database's) terms ----

interface Names {
  users: string[];
  plans: string[];
  deals: string[];
}

function engineInputs(s: Scenario, names: Names) {
  const reporting = new Map<string, ReportingLineInput[]>();
  s.history.forEach((spans, i) => {
    reporting.set(
      names.users[i]!,
      spans.map((span) => ({
        user_id: names.users[i]!,
        manager_id: span.manager === null ? null : names.users[span.manager]!,
        effective_from: dateOf(span.from),
        effective_to: span.to === null ? null : dateOf(span.to),
      })),
    );
  });
  const assignments = new Map<string, AssignmentInput[]>();
  s.assignments.forEach((list, i) => {
    if (list.length === 0) return;
    assignments.set(
      names.users[i]!,
      list.map((a, k) => ({
        id: `asg_${i}_${k}`,
        plan_id: names.plans[a.plan]!,
        user_id: names.users[i]!,
        effective_from: dateOf(a.from),
        effective_to: a.to === null ? null : dateOf(a.to),
        quota_override: null,
      })),
    );
  });
  const plans = new Map<string, PlanInput>(
    s.plans.map((p, k) => [
      names.plans[k]!,
      {
        id: names.plans[k]!,
        version: p.version,
        kind: "override",
        status: p.status,
        currency: "USD",
        period: p.period,
        quota: null,
        base_rate: null,
        tiers: null,
        deal_type_multipliers: {},
        min_deal_amount: null,
        cap_per_period: null,
        override_levels: p.levels,
        effective_from: dateOf(p.from),
        effective_to: p.to === null ? null : dateOf(p.to),
      },
    ]),
  );
  const deals: DealInput[] = s.deals.map((d, k) => ({
    id: names.deals[k]!,
    arr_amount: centsText(BigInt(d.cents)),
    currency: "USD",
    deal_type: "new_business",
    close_date: dateOf(d.day),
    created_at: "2026-01-01T00:00:00.000Z",
    splits: d.splits.map((sp) => ({ user_id: names.users[sp.user]!, percent: sp.percent })),
  }));
  const ctx: OverrideContext = { reporting, assignments, plans };
  return { ctx, deals };
}

/** A line as the engine returns it or as it is stored (amount as numeric text, explanation as JSON). */
interface LineView {
  deal_id: string;
  user_id: string;
  plan_id: string | null;
  plan_version: number | null;
  period: string;
  amount: string;
  explanation: {
    plan_id: string;
    plan_version: number;
    period: string;
    levels: {
      depth: number;
      rate: string;
      users: { user_id: string; credit: string }[];
      credit: string;
      commission: string;
    }[];
    fx: unknown;
    unrounded: string;
    amount: number;
    summary: string;
  };
}

const sameQ = (text: string, expected: Q, what: string) => expect(cmp(dec(text), expected), `${what}: ${text}`).toBe(0);

/** The lines equal the oracle's, field by field, and each explains itself. */
function check(actual: LineView[], expected: ExpectedLine[], s: Scenario, names: Names): void {
  const key = (deal: string, user: string) => `${deal}|${user}`;
  const want = new Map(expected.map((e) => [key(names.deals[e.deal]!, names.users[e.manager]!), e]));
  // Exactly the expected managers are paid on each deal, once each.
  expect(actual.map((l) => key(l.deal_id, l.user_id)).sort()).toEqual([...want.keys()].sort());
  const userIndex = new Map(names.users.map((id, i) => [id, i]));
  for (const line of actual) {
    const e = want.get(key(line.deal_id, line.user_id))!;
    const deal = s.deals[e.deal]!;
    const arr = q(BigInt(deal.cents), 100n);
    const x = line.explanation;
    expect(line.plan_id).toBe(names.plans[e.plan]);
    expect(line.plan_version).toBe(s.plans[e.plan]!.version);
    expect(line.period).toBe(e.period);
    expect([x.plan_id, x.plan_version, x.period, x.fx]).toEqual([line.plan_id, line.plan_version, line.period, null]);
    sameQ(line.amount, q(e.cents, 100n), "amount");
    expect(x.amount).toBe(Number(centsText(e.cents)));
    sameQ(x.unrounded, e.unrounded, "unrounded");
    expect(x.levels.map((l) => l.depth)).toEqual(e.levels.map((l) => l.depth));
    let sum = ZERO;
    x.levels.forEach((level, i) => {
      const el = e.levels[i]!;
      sameQ(level.rate, el.rate, "rate");
      expect(level.users.map((u) => userIndex.get(u.user_id))).toEqual(el.users.map((u) => u.user));
      level.users.forEach((u, k) => {
        sameQ(u.credit, el.users[k]!.credit, "user credit");
      });
      sameQ(level.credit, el.credit, "level credit");
      sameQ(level.commission, el.commission, "level commission");
      // Consistency from the line alone: the manager's own credit is never theirs to earn on, each
      // level counts the deal at most once (splits sum to 100 % and a level holds distinct people, so
      // this holds before the engine's cap: on valid data the cap never binds), commission = credit ×
      // rate, Σ commissions = unrounded.
      expect(level.users.some((u) => u.user_id === line.user_id)).toBe(false);
      const users = level.users.reduce((acc, u) => add(acc, dec(u.credit)), ZERO);
      sameQ(level.credit, minQ(users, arr), "level credit from its users");
      expect(cmp(dec(level.credit), arr)).toBeLessThanOrEqual(0);
      sameQ(level.commission, mul(dec(level.credit), dec(level.rate)), "commission from credit × rate");
      sum = add(sum, dec(level.commission));
    });
    sameQ(x.unrounded, sum, "unrounded from its levels");
    expect(centsText(roundCents(dec(x.unrounded)))).toBe(centsText(e.cents));
    expect(
      x.summary.endsWith(` = ${Number(centsText(e.cents)).toLocaleString("en-US", { minimumFractionDigits: 2 })}`),
    ).toBe(true);
  }
}

// ---- the pure engine ----

const RUNS = { numRuns: 400 };
const pad = (n: number) => String(n).padStart(2, "0");

describe("override lines against the oracle (pure engine)", () => {
  it("every line, every paid manager and every explanation equal an independent walk of the history", () => {
    let ties = 0;
    let lines = 0;
    let moved = 0;
    fc.assert(
      fc.property(scenarioArb({ users: [2, 25], deals: 20, histories: 1 }), ({ scenarios: [s] }) => {
        const names: Names = {
          users: Array.from({ length: s!.users }, (_, i) => `usr_${pad(i)}`),
          plans: s!.plans.map((_, k) => `plan_${k}`),
          deals: s!.deals.map((_, k) => `deal_${pad(k)}`),
        };
        const { ctx, deals } = engineInputs(s!, names);
        const actual = deals.flatMap((d) => calculateOverrideLines(d, ctx));
        const expected = oracle(s!);
        check(actual as LineView[], expected, s!, names);
        // Lines come per deal in manager id order.
        for (const d of deals) {
          const mine = actual.filter((l) => l.deal_id === d.id).map((l) => l.user_id);
          expect(mine).toEqual([...mine].sort());
        }
        lines += expected.length;
        ties += expected.filter((e) => isHalfCent(e.unrounded)).length;
        moved += s!.history.filter((spans) => new Set(spans.map((sp) => sp.manager)).size > 1).length;
      }),
      RUNS,
    );
    // The generators reach what the property is about: many lines, moves, and exact half cents.
    expect(lines).toBeGreaterThan(500);
    expect(moved).toBeGreaterThan(100);
    expect(ties).toBeGreaterThan(0);
  });
});

// ---- the recalculation, on the database ----

describe("override lines the recalculation stores (database)", () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await createTestApp();
    api = new Api(t);
  });
  afterAll(() => t.close());

  /** Override lines of these deals as stored (every status), in the engine's shape. */
  async function storedLines(dealIds: string[]): Promise<LineView[]> {
    const rows = await t.db.db
      .selectFrom("commission_lines")
      .select(["deal_id", "user_id", "plan_id", "plan_version", "period", "amount", "status", "explanation"])
      .where("kind", "=", "override")
      .where("deal_id", "in", dealIds)
      .execute();
    for (const r of rows) expect(r.status).toBe("pending");
    return rows as unknown as LineView[];
  }

  async function writeHistory(s: Scenario, names: Names): Promise<void> {
    const { ctx } = engineInputs(s, names);
    await t.db.db.deleteFrom("reporting_lines").where("user_id", "in", names.users).execute();
    const rows = [...ctx.reporting.values()].flat();
    if (rows.length > 0) await t.db.db.insertInto("reporting_lines").values(rows).execute();
  }

  /** Each deal's total is the Σ of its lines: its override lines alone here (nobody holds a standard plan). */
  async function checkTotals(names: Names, expected: ExpectedLine[]) {
    const deals = await t.db.db
      .selectFrom("deals")
      .select(["id", "total_commission"])
      .where("id", "in", names.deals)
      .execute();
    for (const d of deals) {
      const cents = expected.filter((e) => names.deals[e.deal] === d.id).reduce((sum, e) => sum + e.cents, 0n);
      sameQ(String(d.total_commission), q(cents, 100n), `total of ${d.id}`);
    }
  }

  it("deals created through the API store the oracle's lines; a reporting change recalculated through an overrides target stores the new oracle's", async () => {
    let recalculated = 0;
    let moved = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb({ users: [6, 16], deals: 12, histories: 2 }), async ({ scenarios }) => {
        const [before, after] = scenarios as [Scenario, Scenario];
        const now = new Date();
        const names: Names = {
          users: Array.from({ length: before.users }, () => newId("usr")),
          plans: before.plans.map(() => newId("plan")),
          deals: [],
        };
        await t.db.db
          .insertInto("users")
          .values(
            names.users.map((id, i) => ({
              id,
              name: `Person ${i}`,
              email: `${id.toLowerCase()}@override-property.example`,
              role: before.levels[i]! < 6 ? ("manager" as const) : ("rep" as const),
              active: true,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
        const { ctx } = engineInputs(before, { ...names, deals: [] });
        // Override plans and their assignments as the plan repository writes them (the routes that
        // take kind and override_levels are not used here).
        for (const plan of ctx.plans.values()) {
          const terms = {
            currency: plan.currency,
            period: plan.period,
            quota: null,
            base_rate: null,
            tiers: "[]",
            deal_type_multipliers: "{}",
            min_deal_amount: null,
            cap_per_period: null,
            effective_from: plan.effective_from,
            effective_to: plan.effective_to,
            clawback: null,
            override_levels: JSON.stringify(plan.override_levels),
          };
          await t.db.db
            .insertInto("comp_plans")
            .values({
              id: plan.id,
              kind: "override",
              name: `Override ${plan.id}`,
              description: null,
              status: plan.status,
              version: plan.version,
              created_at: now,
              updated_at: now,
              ...terms,
            })
            .execute();
          await t.db.db
            .insertInto("comp_plan_versions")
            .values({ plan_id: plan.id, version: plan.version, created_at: now, ...terms })
            .execute();
        }
        const assignments = [...ctx.assignments.values()].flat();
        if (assignments.length > 0)
          await t.db.db
            .insertInto("plan_assignments")
            .values(assignments.map((a) => ({ ...a, id: newId("asg"), created_at: now, updated_at: now })))
            .execute();
        await writeHistory(before, names);

        // Deals through the API: each one's creation writes its override lines.
        for (const deal of before.deals) {
          const created = ok<{ id: string }>(
            await api.post("/deals", {
              opportunity_name: `Override property ${newId("x")}`,
              arr_amount: Number(centsText(BigInt(deal.cents))),
              close_date: dateOf(deal.day),
              owner_id: names.users[deal.splits[0]!.user],
              splits: deal.splits.map((sp) => ({ user_id: names.users[sp.user], percent: Number(sp.percent) })),
            }),
            201,
          );
          names.deals.push(created.id);
        }
        const expectedBefore = oracle(before);
        check(await storedLines(names.deals), expectedBefore, before, names);
        await checkTotals(names, expectedBefore);

        // The history changes under them; the recalculation of an overrides target follows it.
        await writeHistory(after, names);
        const result = await t.db.db.transaction().execute(async (tx) => {
          await lockForRecalc(tx, { users: names.users });
          return recalculate(tx, t.ownerCtx(), [
            {
              type: "overrides",
              user_ids: [...names.users].sort(),
              ranges: [{ from: dateOf(0), to: dateOf(QUARTER_DAYS - 1) }],
            },
          ]);
        });
        expect(result.jobId).toBeNull();
        const expectedAfter = oracle(after);
        check(await storedLines(names.deals), expectedAfter, after, names);
        await checkTotals(names, expectedAfter);
        recalculated += expectedAfter.length;
        const keyOf = (e: ExpectedLine) => `${e.deal}|${e.manager}|${e.cents}`;
        const was = new Set(expectedBefore.map(keyOf));
        const is = new Set(expectedAfter.map(keyOf));
        moved += [...is].filter((k) => !was.has(k)).length + [...was].filter((k) => !is.has(k)).length;
      }),
      { numRuns: 10 },
    );
    // The runs stored lines, and the reporting changes moved some of them (added, dropped or repriced).
    expect(recalculated).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0);
  }, 300_000);
});
