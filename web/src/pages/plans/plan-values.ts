import type { CreatePlanBody, PlanEditBody } from "../../data/comp-plans/mutations";
import type { CompPlan, PlanStatus } from "../../data/comp-plans/queries";
import { percent } from "../../lib/format";
import { compareDecimals, decimalPlaces, percentToRatio, plainDecimal, ratioToPercent } from "../../lib/money";
import { today } from "../../lib/periods";

// The plan form's values as a person types them, and the bodies the API takes for them. Rates and
// tier starts are typed in percent (13 = 13 %, a tier from 150 % of quota) and sent as the ratios the
// API stores (0.13, 1.5): the decimal point moves in the text (lib/money.ts), never a float product.

/** How the plan pays: graduated tiers of quota attainment, or one rate on all credit. */
export type Rating = "tiers" | "flat";

/** A standard plan pays the credited people; an override plan pays a manager on the credits below them (§16). */
export type PlanKind = CompPlan["kind"];

/** The depths an override plan reaches below its manager: 1 (direct reports) to 5. */
export const LEVEL_DEPTHS = ["1", "2", "3", "4", "5"] as const;

export interface LevelValues {
  /** Levels below the manager, "1" to "5". */
  depth: string;
  /** Its rate in percent ("3" for 3 %). */
  rate: string;
}

export interface TierValues {
  /** Where the band starts, in percent of quota ("100" = quota met); the first band's is "0". */
  from: string;
  /** Its rate in percent ("12.5"). */
  rate: string;
}

export interface PlanValues {
  name: string;
  description: string;
  status: PlanStatus;
  /** Picked when the plan is created, fixed after. */
  kind: PlanKind;
  period: CompPlan["period"];
  currency: string;
  /** Money as typed ("" = none). */
  quota: string;
  rating: Rating;
  /** In percent: paid on all credit when the plan has no tiers. */
  base_rate: string;
  tiers: TierValues[];
  /** `type` a deal type ("" until picked), `factor` as typed (1 counts the deal in full). */
  multipliers: { type: string; factor: string }[];
  min_deal_amount: string;
  cap_per_period: string;
  /** An override plan's rates by depth, in percent (a standard plan's form keeps one blank row, unsent). */
  levels: LevelValues[];
  effective_from: string;
  effective_to: string;
  /** Kept as the plan has it: the form does not edit the clawback policy yet (PATCH /comp-plans/{id} does). */
  clawback: CompPlan["clawback"];
}

const text = (value: number | null) => (value === null ? "" : String(value));
/** The longest name the API takes (200) for a copy's. */
const NAME_MAX = 200;

/** A new plan's starting values: a draft, quarterly, in USD, two bands (below and above quota) to fill in. */
export function newPlanValues(): PlanValues {
  return {
    name: "",
    description: "",
    status: "draft",
    kind: "standard",
    period: "quarter",
    currency: "USD",
    quota: "",
    rating: "tiers",
    base_rate: "",
    tiers: [
      { from: "0", rate: "" },
      { from: "100", rate: "" },
    ],
    multipliers: [],
    min_deal_amount: "",
    cap_per_period: "",
    levels: [{ depth: "1", rate: "" }],
    effective_from: today(),
    effective_to: "",
    clawback: null,
  };
}

/** A plan's values, rates in percent. */
export function valuesOf(plan: CompPlan): PlanValues {
  return {
    name: plan.name,
    description: plan.description ?? "",
    status: plan.status,
    kind: plan.kind,
    period: plan.period,
    currency: plan.currency,
    quota: text(plan.quota),
    rating: plan.tiers.length > 0 ? "tiers" : "flat",
    base_rate: plan.base_rate === null ? "" : ratioToPercent(plan.base_rate),
    tiers: plan.tiers.map((t) => ({ from: ratioToPercent(t.from_attainment), rate: ratioToPercent(t.rate) })),
    multipliers: Object.entries(plan.deal_type_multipliers).map(([type, factor]) => ({ type, factor: String(factor) })),
    min_deal_amount: text(plan.min_deal_amount),
    cap_per_period: text(plan.cap_per_period),
    levels: plan.override_levels?.map((l) => ({ depth: String(l.depth), rate: ratioToPercent(l.rate) })) ?? [
      { depth: "1", rate: "" },
    ],
    effective_from: plan.effective_from,
    effective_to: plan.effective_to ?? "",
    clawback: plan.clawback,
  };
}

/** A duplicate's starting values: the plan's terms, named "Copy of …", a draft. */
export function copyValues(plan: CompPlan): PlanValues {
  return { ...valuesOf(plan), name: `Copy of ${plan.name}`.slice(0, NAME_MAX), status: "draft" };
}

/** A percent as the ratio the API takes; NaN when it is not a decimal (the API refuses it: checked first). */
const ratio = (percent: string) => Number(percentToRatio(percent) ?? Number.NaN);
/** A percent the API takes as a rate: 0–1,000 %, at most 4 decimals (6 as a ratio). */
function isRate(percent: string): boolean {
  const plain = plainDecimal(percent);
  return plain !== null && !plain.startsWith("-") && compareDecimals(plain, "1000") <= 0 && decimalPlaces(plain) <= 4;
}
/** Money as typed: "" is none; anything else a number (NaN when not one). */
const amount = (value: string) => (value.trim() === "" ? null : Number(value));

/** What a plan of either kind sets. */
function commonFields(v: PlanValues) {
  return {
    name: v.name,
    description: v.description.trim() === "" ? null : v.description,
    status: v.status,
    period: v.period,
    currency: v.currency.trim().toUpperCase(),
    effective_from: v.effective_from,
    effective_to: v.effective_to === "" ? null : v.effective_to,
    clawback: v.clawback,
  };
}

/** An override plan's fields: its levels and nothing of a standard plan's rating (the API refuses those). */
function overrideFields(v: PlanValues) {
  return {
    ...commonFields(v),
    override_levels: v.levels.map((l) => ({ depth: Number(l.depth), rate: ratio(l.rate) })),
  };
}

/** The form as the plan's fields (what a create or a PATCH sets; `kind` is sent on create only). */
function fieldsOf(v: PlanValues) {
  if (v.kind === "override") return overrideFields(v);
  const tiered = v.rating === "tiers";
  // Tiers leave the base rate unused (and hidden): kept as it was, so an edit does not change it; none
  // when it is not a rate the API takes, since nobody sees it to correct it.
  const baseRate = tiered && !isRate(v.base_rate) ? null : ratio(v.base_rate);
  return {
    ...commonFields(v),
    quota: amount(v.quota),
    base_rate: baseRate,
    tiers: tiered ? v.tiers.map((t) => ({ from_attainment: ratio(t.from), rate: ratio(t.rate) })) : null,
    deal_type_multipliers: Object.fromEntries(
      v.multipliers.map((m) => [m.type, Number(plainDecimal(m.factor) ?? Number.NaN)]),
    ),
    min_deal_amount: amount(v.min_deal_amount),
    cap_per_period: amount(v.cap_per_period),
  };
}

/** POST /comp-plans's body: the plan's kind and its fields. */
export function createBody(v: PlanValues): CreatePlanBody {
  return { kind: v.kind, ...fieldsOf(v) };
}

/** The PATCH body: only the fields the form changed (PATCH merges, API.md §2), so the change says what it is. */
export function editBody(plan: CompPlan, v: PlanValues): PlanEditBody {
  const current: Record<string, unknown> = { ...plan, tiers: plan.tiers.length ? plan.tiers : null };
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fieldsOf(v))) {
    if (JSON.stringify(value) !== JSON.stringify(current[field])) body[field] = value;
  }
  return body as PlanEditBody;
}

/** "10%" from "10" as typed; null while it is not a decimal. */
export const percentShown = (typed: string): string | null => {
  const ratio = percentToRatio(typed);
  return ratio === null || plainDecimal(typed)?.startsWith("-") ? null : percent(ratio, 4);
};

/**
 * The bands in words once each is complete: "Credit up to 100% of quota earns 10%; from 100% to 150%,
 * 15%; above 150%, 20%." (graduated: each band's rate pays the credit inside it).
 */
export function bandsInWords(tiers: TierValues[]): string | null {
  const bands = tiers.map((t) => ({ from: percentShown(t.from), rate: percentShown(t.rate) }));
  if (bands.length === 0 || bands.some((b) => b.from === null || b.rate === null)) return null;
  const ascending = tiers.every((t, i) => i === 0 || compareDecimals(t.from, tiers[i - 1]!.from) > 0);
  if (!ascending || plainDecimal(tiers[0]!.from) !== "0") return null;
  if (bands.length === 1) return `All credit earns ${bands[0]!.rate}.`;
  const parts = bands.map((band, i) => {
    const next = bands[i + 1];
    if (i === 0) return `Credit up to ${next!.from} of quota earns ${band.rate}`;
    return next ? `from ${band.from} to ${next.from}, ${band.rate}` : `above ${band.from}, ${band.rate}`;
  });
  return `${parts.join("; ")}.`;
}

/**
 * An override plan's levels in words once each is complete, by depth: "The manager earns 3% on their
 * direct reports' credits; 1% on credits 2 levels below."
 */
export function levelsInWords(levels: LevelValues[]): string | null {
  const parts = [...levels]
    .sort((a, b) => Number(a.depth) - Number(b.depth))
    .map((l) => ({ depth: l.depth, rate: percentShown(l.rate) }));
  const depths = new Set(parts.map((p) => p.depth));
  if (parts.length === 0 || depths.size !== parts.length || parts.some((p) => p.rate === null || p.depth === "")) {
    return null;
  }
  const said = parts.map((p) =>
    p.depth === "1" ? `${p.rate} on their direct reports' credits` : `${p.rate} on credits ${p.depth} levels below`,
  );
  return `The manager earns ${said.join("; ")}.`;
}
