// The commission engine as it was computed with decimal.js (precision 40, half away from zero) before the
// engine moved to scaled integers: kept here, unchanged in substance, as the oracle the fixed-point engine
// must match line for line — amounts, every explanation string, SPIFF lines and credits.
import { Decimal } from "decimal.js";
import {
  type BandExplanation,
  type BucketEntry,
  type BucketInput,
  type CapExplanation,
  type Credit,
  compareDealOrder,
  type DealInput,
  type PlanInput,
  type PlanLineExplanation,
  type PlanLineResult,
  type SpiffInput,
  type SpiffLineResult,
} from "../../src/commissions/engine/index.js";

// The decimal.js money helpers the services used beside the engine until src/money became the one money module.

// A private clone: the global Decimal config stays untouched. 40 significant digits hold
// arr (2 dp) × percent (4 dp) × rate (6 dp) × multiplier (6 dp) exactly for any realistic amount.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -9e15, toExpPos: 9e15 });
export type Dec = Decimal;

const ZERO = new Dec(0);

/** Round to the cent, half away from zero; never returns negative zero. */
export function roundCents(value: Decimal.Value): Dec {
  const rounded = new Dec(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
  return rounded.isZero() ? ZERO : rounded;
}

/** "1234.50": a money amount with exactly two decimals, rounded half away from zero. */
export function toCents(value: Decimal.Value): string {
  return roundCents(value).toFixed(2);
}

/** Exact plain notation, never an exponent: "30000", "3333.3333", "0.00000001". */
export function plain(value: Decimal.Value): string {
  const d = new Dec(value);
  return d.isZero() ? "0" : d.toFixed();
}

/** "10,000.00", "3,333.3333": thousands separators, at least two decimals, full precision beyond. */
export function formatMoney(value: Decimal.Value): string {
  const d = new Dec(value);
  const text = d.decimalPlaces() <= 2 ? d.toFixed(2) : d.toFixed();
  const negative = text.startsWith("-");
  const [intPart = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative && !d.isZero() ? "-" : ""}${grouped}.${fraction}`;
}

/** A rate as a percent: 0.1 → "10%", 0.125 → "12.5%". */
export function formatPercent(rate: Decimal.Value): string {
  return `${plain(new Dec(rate).times(100))}%`;
}

/** The rounded amount as a JSON number (4000, 1234.5); safe because it has at most two decimals. */
export function amountNumber(rounded: Dec): number {
  return Number(rounded.toFixed(2));
}

interface Band {
  from: Dec;
  to: Dec | null;
  rate: Dec;
}

function bandsOf(plan: PlanInput, quota: string | null): Band[] {
  const tiers = plan.tiers ?? [];
  if (tiers.length === 0) {
    if (plan.base_rate === null) throw new RangeError(`plan ${plan.id} has neither tiers nor base_rate`);
    return [{ from: ZERO, to: null, rate: new Dec(plan.base_rate) }];
  }
  if (quota === null || !new Dec(quota).gt(0)) throw new RangeError(`plan ${plan.id} has tiers but no quota above 0`);
  const q = new Dec(quota);
  return tiers.map((tier, i) => {
    const next = tiers[i + 1];
    return {
      from: q.times(tier.from_attainment),
      to: next ? q.times(next.from_attainment) : null,
      rate: new Dec(tier.rate),
    };
  });
}

function sliceBands(bands: Band[], prior: Dec, credit: Dec): BandExplanation[] {
  const end = prior.plus(credit);
  const slices: BandExplanation[] = [];
  for (const band of bands) {
    const top = band.to === null ? end : Dec.min(end, band.to);
    const slice = top.minus(Dec.max(prior, band.from));
    if (!slice.gt(0)) continue;
    slices.push({
      from: plain(band.from),
      to: band.to === null ? null : plain(band.to),
      rate: plain(band.rate),
      amount: plain(slice),
      commission: plain(slice.times(band.rate)),
    });
  }
  return slices;
}

interface PricedLine {
  deal: DealInput;
  credit: Dec;
  prior: Dec;
  slices: BandExplanation[];
  multiplier: Dec;
  unrounded: Dec;
  rounded: Dec;
  minDeal: Dec | null;
}

function priceLine(plan: PlanInput, bands: Band[], entry: BucketEntry, prior: Dec): PricedLine {
  const credit = new Dec(entry.credit);
  const slices = sliceBands(bands, prior, credit);
  const factor = Object.hasOwn(plan.deal_type_multipliers, entry.deal.deal_type)
    ? plan.deal_type_multipliers[entry.deal.deal_type]
    : undefined;
  const multiplier = new Dec(factor ?? 1);
  const unrounded = slices.reduce((sum, s) => sum.plus(s.commission), ZERO).times(multiplier);
  const minimum = plan.min_deal_amount === null ? null : new Dec(plan.min_deal_amount);
  const minDeal = minimum !== null && new Dec(entry.deal.arr_amount).lt(minimum) ? minimum : null;
  const rounded = minDeal === null ? roundCents(unrounded) : ZERO;
  return { deal: entry.deal, credit, prior, slices, multiplier, unrounded, rounded, minDeal };
}

function summary(line: PricedLine, amount: Dec, cap: CapExplanation | null): string {
  const bands = line.slices.map((s) => `${formatMoney(s.amount)} × ${formatPercent(s.rate)}`).join(" + ");
  const base = bands === "" ? `${formatMoney(line.credit)} credit` : bands;
  const multiplier = line.multiplier.eq(1) ? "" : ` × ${plain(line.multiplier)} (${line.deal.deal_type})`;
  const text = `${base}${multiplier}`;
  const shown = formatMoney(amount);
  if (line.minDeal !== null) {
    const arr = formatMoney(line.deal.arr_amount);
    const would = formatMoney(roundCents(line.unrounded));
    return `deal ARR ${arr} is below the minimum deal amount ${formatMoney(line.minDeal)}, so ${shown} instead of ${text} = ${would} (its credit still counts toward attainment)`;
  }
  if (cap?.applied) {
    const cut = `capped at ${shown} (cap ${formatMoney(cap.limit)}, ${formatMoney(cap.before)} used before)`;
    return `${text} = ${formatMoney(line.rounded)} ${cut} = ${shown}`;
  }
  return `${text} = ${shown}`;
}

/** Plan lines of one bucket, computed with decimal.js; each entry with its own quota when it has one. */
export function oracleBucket(input: BucketInput): PlanLineResult[] {
  const { plan, period, userId } = input;
  const quotaOf = (entry: BucketEntry) => (entry.quota === undefined ? input.quota : entry.quota);
  const limit = plan.cap_per_period === null ? null : new Dec(plan.cap_per_period);
  const ordered = [...input.entries].sort((a, b) => compareDealOrder(a.deal, b.deal));
  let used = ordered.reduce((sum, e) => (e.locked ? sum.plus(e.lockedAmount ?? 0) : sum), ZERO);
  let prior = ZERO;
  const lines: PlanLineResult[] = [];
  for (const entry of ordered) {
    if (!entry.locked) {
      const quota = quotaOf(entry);
      const line = priceLine(plan, bandsOf(plan, quota), entry, prior);
      let amount = line.rounded;
      let cap: CapExplanation | null = null;
      if (limit !== null) {
        const room = limit.minus(used);
        const applied = line.rounded.gt(room);
        amount = applied ? Dec.max(room, ZERO) : line.rounded;
        cap = { limit: plain(limit), before: plain(used), applied };
      }
      used = used.plus(amount);
      const explanation: PlanLineExplanation = {
        summary: summary(line, amount, cap),
        plan_id: plan.id,
        plan_version: plan.version,
        period,
        quota: quota === null ? null : plain(quota),
        credit: plain(line.credit),
        prior_attainment: plain(line.prior),
        bands: line.slices,
        multiplier: plain(line.multiplier),
        cap,
        unrounded: plain(line.unrounded),
        ...(line.minDeal === null ? {} : { min_deal_amount: plain(line.minDeal) }),
        amount: amountNumber(amount),
      };
      lines.push({
        deal_id: entry.deal.id,
        user_id: userId,
        plan_id: plan.id,
        plan_version: plan.version,
        period,
        kind: "plan",
        amount: amount.toFixed(2),
        currency: plan.currency,
        explanation,
      });
    }
    prior = prior.plus(entry.credit);
  }
  return lines;
}

/** Each credited user's share, with decimal.js. */
export function oracleCredits(deal: Pick<DealInput, "arr_amount" | "splits">): Credit[] {
  const arr = new Dec(deal.arr_amount);
  return deal.splits.map((split) => ({
    user_id: split.user_id,
    percent: split.percent,
    credit: plain(arr.times(split.percent).dividedBy(100)),
  }));
}

/** SPIFF lines (the deal-level criteria as the engine had them), with decimal.js. */
export function oracleSpiffLines(
  deal: DealInput,
  credits: Credit[],
  spiffs: SpiffInput[],
  period: string,
): SpiffLineResult[] {
  const lines: SpiffLineResult[] = [];
  for (const spiff of spiffs) {
    const met: string[] = [];
    let missed = !spiff.active || deal.currency !== spiff.currency;
    missed ||= !(spiff.starts_on <= deal.close_date && deal.close_date <= spiff.ends_on);
    met.push("SPIFF active", `currency ${deal.currency}`);
    met.push(`close_date ${deal.close_date} within ${spiff.starts_on} to ${spiff.ends_on}`);
    const { min_arr_amount: minArr, deal_types: types, user_ids: users } = spiff.criteria;
    if (minArr !== null && minArr !== undefined) {
      missed ||= !new Dec(deal.arr_amount).gte(minArr);
      met.push(`arr_amount ${formatMoney(deal.arr_amount)} ≥ ${formatMoney(minArr)}`);
    }
    if (types !== null && types !== undefined) {
      missed ||= !types.includes(deal.deal_type);
      met.push(`deal_type ${deal.deal_type} is listed`);
    }
    if (missed) continue;
    for (const credit of credits) {
      if (users !== null && users !== undefined && !users.includes(credit.user_id)) continue;
      const unrounded =
        spiff.payout.type === "flat"
          ? new Dec(spiff.payout.amount).times(credit.percent).dividedBy(100)
          : new Dec(credit.credit).times(spiff.payout.rate);
      const text =
        spiff.payout.type === "flat"
          ? `flat ${formatMoney(spiff.payout.amount)} × ${plain(credit.percent)}% split`
          : `${formatMoney(credit.credit)} × ${formatPercent(spiff.payout.rate)}`;
      const amount = roundCents(unrounded);
      lines.push({
        deal_id: deal.id,
        user_id: credit.user_id,
        spiff_id: spiff.id,
        period,
        kind: "spiff",
        amount: amount.toFixed(2),
        currency: spiff.currency,
        explanation: {
          summary: `SPIFF "${spiff.name}": ${text} = ${formatMoney(amount)}`,
          spiff_id: spiff.id,
          spiff_name: spiff.name,
          criteria_met: users ? [...met, `user ${credit.user_id} is listed`] : met,
          payout: { ...spiff.payout },
          credit: plain(credit.credit),
          percent: plain(credit.percent),
          period,
          unrounded: plain(unrounded),
          amount: amountNumber(amount),
        },
      });
    }
  }
  return lines;
}
