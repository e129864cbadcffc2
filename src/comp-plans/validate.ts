import { canonical } from "../db/json.js";
import { AppError, type ErrorDetail } from "../errors.js";
import { compareTexts, parse, plain as plainFixed, sign } from "../money/index.js";
import { type PlanTerms, termsOf } from "./repository.js";

const plain = (v: string) => plainFixed(parse(v));
const dec = (v: string | null) => (v === null ? null : plain(v));

/** Decimals in one spelling ("0.1", never "0.100000"), so stored and given terms compare exactly. */
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

/** Rules across fields (API.md §4): tiers ascend from 0 and need a quota; base_rate without tiers; dates ordered. */
export function checkPlanTerms(t: PlanTerms): void {
  const details = t.tiers.length > 0 ? tierProblems(t) : [];
  if (t.tiers.length === 0 && t.base_rate === null) {
    details.push({ param: "base_rate", message: "is required when the plan has no tiers (give base_rate or tiers)" });
  }
  if (t.effective_to !== null && t.effective_to < t.effective_from) {
    details.push({ param: "effective_to", message: `must be on or after effective_from (${t.effective_from})` });
  }
  if (details.length > 0) {
    const summary = details.map((d) => `${d.param} ${d.message}`).join("; ");
    throw new AppError("validation_error", `Invalid comp plan: ${summary}`, details);
  }
}
