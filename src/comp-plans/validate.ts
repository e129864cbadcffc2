import { canonical } from "../db/json.js";
import type { PlanKind } from "../enums.js";
import { AppError, type ErrorDetail } from "../errors.js";
import { minorUnitProblems } from "../http/commission-fields.js";
import { compareTexts, parse, plain as plainFixed, sign } from "../money/index.js";
import { type PlanTerms, termsOf } from "./repository.js";

const plain = (v: string) => plainFixed(parse(v));
const dec = (v: string | null) => (v === null ? null : plain(v));

/** Decimals in one spelling ("0.1", never "0.100000") and levels by depth, so stored and given terms compare exactly. */
export function normalizeTerms(t: PlanTerms): PlanTerms {
  return {
    ...t,
    quota: dec(t.quota),
    base_rate: dec(t.base_rate),
    tiers: t.tiers.map((x) => ({ from_attainment: plain(x.from_attainment), rate: plain(x.rate) })),
    deal_type_multipliers: Object.fromEntries(Object.entries(t.deal_type_multipliers).map(([k, v]) => [k, plain(v)])),
    min_deal_amount: dec(t.min_deal_amount),
    cap_per_period: dec(t.cap_per_period),
    clawback: t.clawback && {
      window_days: t.clawback.window_days,
      percent: plain(t.clawback.percent),
      proration: t.clawback.proration,
    },
    override_levels:
      t.override_levels === null
        ? null
        : t.override_levels.map((l) => ({ depth: l.depth, rate: plain(l.rate) })).sort((a, b) => a.depth - b.depth),
  };
}

export function sameTerms(a: PlanTerms, b: PlanTerms): boolean {
  return canonical(termsOf(normalizeTerms(a))) === canonical(termsOf(normalizeTerms(b)));
}

function tierProblems(t: PlanTerms): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const first = t.tiers[0]!;
  if (sign(parse(first.from_attainment)) !== 0) {
    details.push({ param: "tiers[0].from_attainment", message: "must be 0: the first band starts at 0 % of quota" });
  }
  for (let i = 1; i < t.tiers.length; i++) {
    const prev = t.tiers[i - 1]!.from_attainment;
    if (compareTexts(t.tiers[i]!.from_attainment, prev) <= 0) {
      details.push({
        param: `tiers[${i}].from_attainment`,
        message: `must be greater than tiers[${i - 1}].from_attainment (${plain(prev)}): tiers ascend`,
      });
    }
  }
  if (t.quota === null || sign(parse(t.quota)) <= 0) {
    details.push({ param: "quota", message: "must be greater than 0 for a plan with tiers" });
  }
  return details;
}

/** The terms an override plan pays without (API.md §16): each is refused when it holds a value. */
const NOT_ON_OVERRIDE: [keyof PlanTerms, (t: PlanTerms) => boolean][] = [
  ["quota", (t) => t.quota !== null],
  ["base_rate", (t) => t.base_rate !== null],
  ["tiers", (t) => t.tiers.length > 0],
  ["deal_type_multipliers", (t) => Object.keys(t.deal_type_multipliers).length > 0],
  ["min_deal_amount", (t) => t.min_deal_amount !== null],
  ["cap_per_period", (t) => t.cap_per_period !== null],
];

/** An override plan: levels (at least one, each depth once) and none of a standard plan's rating terms. */
function overrideProblems(t: PlanTerms): ErrorDetail[] {
  const details: ErrorDetail[] = NOT_ON_OVERRIDE.filter(([, given]) => given(t)).map(([param]) => ({
    param,
    message: "is not allowed on an override plan: it pays by override_levels only",
  }));
  const levels = t.override_levels ?? [];
  if (levels.length === 0) {
    details.push({
      param: "override_levels",
      message: "is required on an override plan: at least one level {depth, rate}",
    });
  }
  const depths = levels.map((l) => l.depth);
  const twice = [...new Set(depths.filter((d, i) => depths.indexOf(d) !== i))];
  if (twice.length > 0) {
    details.push({
      param: "override_levels",
      message: `must give each depth once: depth ${twice.join(", ")} is given more than once`,
    });
  }
  return details;
}

function standardProblems(t: PlanTerms): ErrorDetail[] {
  const details = t.tiers.length > 0 ? tierProblems(t) : [];
  if (t.tiers.length === 0 && t.base_rate === null) {
    details.push({ param: "base_rate", message: "is required when the plan has no tiers (give base_rate or tiers)" });
  }
  if (t.override_levels !== null) {
    details.push({
      param: "override_levels",
      message: 'is not allowed on a standard plan: only a plan of kind "override" pays by levels',
    });
  }
  return details;
}

/**
 * Rules across fields (API.md §4, §16): a standard plan's tiers ascend from 0 and need a quota, base_rate
 * without tiers; an override plan's levels and nothing else rating; dates ordered.
 */
export function checkPlanTerms(t: PlanTerms & { kind: PlanKind }): void {
  const details = t.kind === "override" ? overrideProblems(t) : standardProblems(t);
  // API.md §15: the plan's amounts in the plan's currency (a PATCH checks the merged plan).
  const { quota, min_deal_amount, cap_per_period } = t;
  details.push(...minorUnitProblems(t.currency, { quota, min_deal_amount, cap_per_period }));
  if (t.effective_to !== null && t.effective_to < t.effective_from) {
    details.push({ param: "effective_to", message: `must be on or after effective_from (${t.effective_from})` });
  }
  if (details.length > 0) {
    const summary = details.map((d) => `${d.param} ${d.message}`).join("; ");
    throw new AppError("validation_error", `Invalid comp plan: ${summary}`, details);
  }
}
