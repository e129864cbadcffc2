// An independent oracle for converted plan lines (API.md §15 with §5 rules 4–7): every value an exact
// BigInt fraction, nothing shared with src/money. Credits are converted by their deal's rate, counted in
// attainment unrounded, and each line is rounded once, half away from zero, at the plan currency's minor unit.
import type { BucketEntry, PlanInput } from "../../src/commissions/engine/index.js";

export interface Rat {
  n: bigint;
  d: bigint;
}

const abs = (x: bigint) => (x < 0n ? -x : x);
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

export function rat(n: bigint, d = 1n): Rat {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

export const add = (a: Rat, b: Rat) => rat(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Rat, b: Rat) => rat(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Rat, b: Rat) => rat(a.n * b.n, a.d * b.d);
export const cmpRat = (a: Rat, b: Rat) => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
const minRat = (a: Rat, b: Rat) => (cmpRat(a, b) <= 0 ? a : b);
const maxRat = (a: Rat, b: Rat) => (cmpRat(a, b) >= 0 ? a : b);
export const ZERO = rat(0n);

/** "12.5", "-3", "25175/23" → an exact fraction. */
export function ratOf(text: string): Rat {
  const slash = text.indexOf("/");
  if (slash >= 0) return rat(BigInt(text.slice(0, slash)), BigInt(text.slice(slash + 1)));
  const [whole, fraction = ""] = text.split(".");
  return rat(BigInt(`${whole}${fraction}`), 10n ** BigInt(fraction.length));
}

/** Half away from zero to `places` decimals. */
export function roundHalfAway(v: Rat, places: number): Rat {
  const scaled = abs(v.n) * 10n ** BigInt(places);
  let q = scaled / v.d;
  if (2n * (scaled % v.d) >= v.d) q++;
  return rat(v.n < 0n ? -q : q, 10n ** BigInt(places));
}

const MINOR: Record<string, number> = { JPY: 0, KWD: 3 };

export interface OracleLine {
  deal_id: string;
  amount: Rat;
  prior: Rat;
  credit: Rat;
}

/** The converted credit of an entry in the plan currency. */
export const convertedCredit = (e: BucketEntry): Rat =>
  e.fx ? mul(ratOf(e.credit), rat(e.fx.num, e.fx.den)) : ratOf(e.credit);

export function oracleConverted(plan: PlanInput, entries: BucketEntry[]): OracleLine[] {
  const key = (e: BucketEntry) => [e.deal.close_date, e.deal.created_at, e.deal.id] as const;
  const ordered = [...entries].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
  const places = MINOR[plan.currency] ?? 2;
  const q = plan.quota === null ? null : ratOf(plan.quota);
  const tiers = plan.tiers ?? [];
  const bands =
    tiers.length === 0
      ? [{ from: ZERO, to: null as Rat | null, rate: ratOf(plan.base_rate!) }]
      : tiers.map((t, i) => ({
          from: mul(q!, ratOf(t.from_attainment)),
          to: tiers[i + 1] ? mul(q!, ratOf(tiers[i + 1]!.from_attainment)) : null,
          rate: ratOf(t.rate),
        }));
  const cap = plan.cap_per_period === null ? null : ratOf(plan.cap_per_period);
  const minimum = plan.min_deal_amount === null ? null : ratOf(plan.min_deal_amount);
  let used = ZERO;
  for (const e of ordered) if (e.locked) used = add(used, ratOf(e.lockedAmount ?? "0"));
  let prior = ZERO;
  const lines: OracleLine[] = [];
  for (const e of ordered) {
    const credit = convertedCredit(e);
    if (!e.locked) {
      const end = add(prior, credit);
      let commission = ZERO;
      for (const b of bands) {
        const slice = sub(b.to === null ? end : minRat(end, b.to), maxRat(prior, b.from));
        if (cmpRat(slice, ZERO) > 0) commission = add(commission, mul(slice, b.rate));
      }
      const multiplier = ratOf(plan.deal_type_multipliers[e.deal.deal_type] ?? "1");
      const arr = e.fx ? mul(ratOf(e.deal.arr_amount), rat(e.fx.num, e.fx.den)) : ratOf(e.deal.arr_amount);
      const below = minimum !== null && cmpRat(arr, minimum) < 0;
      let amount = below ? ZERO : roundHalfAway(mul(commission, multiplier), places);
      if (cap !== null) {
        const room = sub(cap, used);
        if (cmpRat(amount, room) > 0) amount = maxRat(room, ZERO);
      }
      used = add(used, amount);
      lines.push({ deal_id: e.deal.id, amount, prior, credit });
    }
    prior = add(prior, credit);
  }
  return lines;
}
