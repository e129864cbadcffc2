import { periodOf, periodRange } from "../commissions/index.js";
import type { DealStatus } from "../deals/index.js";
import type { DealType } from "../enums.js";
import { COMPANIES, currentTarget, HISTORY, JOINT_DEALS, type PlanPeriod } from "./cast.js";

/*
 * The demo's deals, computed from today: each rep's current period and the ones before it, every
 * period's deals summing to the attainment the cast gives it (rejected duplicates come on top, and
 * count for nothing). Pure: no I/O, no clock but the `today` it is given.
 */

export interface DemoRep {
  key: string;
  id: string;
  kind: PlanPeriod;
  /** The quota in force for this rep (their override, else the plan's). */
  quota: number;
  /** Attainment in each period before the current one, oldest first. */
  history: number[];
}

export type Outcome = "approved" | "partially_approved" | "denied";

export interface DemoDeal {
  body: {
    external_id: string;
    opportunity_name: string;
    arr_amount: number;
    deal_type: DealType;
    close_date: string;
    owner_id: string;
    splits?: { user_id: string; percent: number }[];
  };
  /** Where the workflow takes it, and the outcome of a dispute it went through on the way (if any). */
  target: DealStatus;
  resolved: Outcome | null;
}

interface Period {
  label: string;
  from: string;
  /** The period's last day, or today in the current period. */
  last: string;
  /** 0 for the current period, 1 for the one before, … */
  back: number;
  /** How far through the period today is (1 for past periods). */
  elapsed: number;
}

const DAY = 86_400_000;
const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The rep's periods of history, oldest first: the current one is last. */
export function periodsOf(kind: PlanPeriod, today: string): Period[] {
  const periods: Period[] = [];
  let label = periodOf(kind, today);
  for (let back = 0; back < HISTORY[kind].periods; back++) {
    const { from, to } = periodRange(label);
    const last = back === 0 ? today : to;
    const elapsed = (day(last) - day(from) + DAY) / (day(to) - day(from) + DAY);
    periods.unshift({ label, from, last, back, elapsed });
    label = periodOf(kind, iso(day(from) - DAY));
  }
  return periods;
}

/** A day `at` (0 ≤ at < 1) of the way through a period, up to its last day (today in the current one). */
function dayAt(period: Period, at: number): string {
  const days = (day(period.last) - day(period.from)) / DAY + 1;
  return iso(day(period.from) + Math.min(days - 1, Math.floor(at * days)) * DAY);
}

/** mulberry32, seeded by a string: the same deals for the same rep and period on every run. */
function generator(key: string): () => number {
  let a = 0;
  for (const c of key) a = (Math.imul(a, 31) + c.charCodeAt(0)) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES: DealType[] = ["new_business", "new_business", "new_business", "expansion", "expansion", "renewal"];
const WHAT: Record<DealType, string> = {
  new_business: "new subscription",
  expansion: "expansion",
  renewal: "renewal",
  other: "services",
};
const OUTCOMES: Outcome[] = ["denied", "approved", "partially_approved"];

/**
 * The current period is mostly waiting for approval; the one before is approved and waiting for its
 * payout, with a few disputes open; older periods are paid, one deal of each rep's having gone
 * through a dispute (each outcome in turn) two periods ago.
 */
function storyOf(back: number, index: number, rep: number): Pick<DemoDeal, "target" | "resolved"> {
  if (back === 0) return { target: index % 3 === 2 ? "approved" : "pending", resolved: null };
  if (back === 1) {
    if (index === 1 && rep % 2 === 0) return { target: "disputed", resolved: null };
    return { target: "approved", resolved: index === 2 && rep === 1 ? "approved" : null };
  }
  return { target: "paid", resolved: back === 2 && index === 1 ? OUTCOMES[rep % OUTCOMES.length]! : null };
}

const slug = (label: string) => label.toLowerCase();

/** Every demo deal for these reps as of `today` (YYYY-MM-DD). */
export function demoDeals(reps: DemoRep[], today: string): DemoDeal[] {
  const byKey = new Map(reps.map((r) => [r.key, r]));
  const periods = new Map(reps.map((r) => [r.key, periodsOf(r.kind, today)]));
  const budget = new Map<string, number>();
  for (const rep of reps) {
    for (const p of periods.get(rep.key)!) {
      const target = p.back === 0 ? currentTarget(p.elapsed) : rep.history[rep.history.length - p.back]!;
      budget.set(`${rep.key}|${p.label}`, Math.round(target * rep.quota));
    }
  }
  const take = (rep: DemoRep, label: string, credit: number) => {
    const key = `${rep.key}|${label}`;
    const left = budget.get(key);
    if (left === undefined || left - credit < rep.quota * 0.2) throw new Error(`demo: no room for ${credit} in ${key}`);
    budget.set(key, left - credit);
  };

  const deals: DemoDeal[] = [];
  for (const joint of JOINT_DEALS) {
    const owner = byKey.get(joint.owner)!;
    const partner = byKey.get(joint.partner)!;
    const list = periods.get(owner.key)!;
    const period = list[list.length - 1 - joint.back]!;
    const close = dayAt(period, joint.at);
    const share = Math.round((joint.arr * joint.percent) / 100);
    take(owner, period.label, share);
    take(partner, periodOf(partner.kind, close), joint.arr - share);
    deals.push({
      body: {
        external_id: `demo-${owner.key}-${partner.key}-${slug(period.label)}`,
        opportunity_name: `${joint.company} — ${WHAT[joint.deal_type]}`,
        arr_amount: joint.arr,
        deal_type: joint.deal_type,
        close_date: close,
        owner_id: owner.id,
        splits: [
          { user_id: owner.id, percent: joint.percent },
          { user_id: partner.id, percent: 100 - joint.percent },
        ],
      },
      ...storyOf(joint.back, 0, 0),
    });
  }

  reps.forEach((rep, r) => {
    const count = HISTORY[rep.kind].deals;
    let customer = r * 5;
    for (const period of periods.get(rep.key)!) {
      const next = generator(`${rep.key}|${period.back}`);
      const weights = Array.from({ length: count }, () => 0.5 + next());
      const sum = weights.reduce((a, b) => a + b, 0);
      const total = budget.get(`${rep.key}|${period.label}`)!;
      let given = 0;
      for (let i = 0; i < count; i++) {
        const arr = i === count - 1 ? total - given : Math.round((total * weights[i]!) / sum / 10) * 10;
        given += arr;
        const dealType = TYPES[Math.floor(next() * TYPES.length)]!;
        const body = {
          external_id: `demo-${rep.key}-${slug(period.label)}-${i + 1}`,
          opportunity_name: `${COMPANIES[customer++ % COMPANIES.length]} — ${WHAT[dealType]}`,
          arr_amount: arr,
          deal_type: dealType,
          close_date: dayAt(period, (i + next()) / count),
          owner_id: rep.id,
        };
        deals.push({ body, ...storyOf(period.back, i, r) });
        // One duplicate a rep entered by mistake, rejected: in the current period or the one before.
        if (i === 0 && period.back === r % 2) {
          deals.push({
            body: { ...body, external_id: `demo-${rep.key}-${slug(period.label)}-duplicate` },
            target: "rejected",
            resolved: null,
          });
        }
      }
    }
  });
  return deals;
}
