import type { PlanEditBody } from "../../data/comp-plans/mutations";
import type { CompPlan, PlanStatus } from "../../data/comp-plans/queries";

/** The edit form's values: numbers as typed (decimals as the API writes them, "" = none). */
export interface PlanForm {
  name: string;
  description: string;
  status: PlanStatus;
  period: CompPlan["period"];
  currency: string;
  quota: string;
  base_rate: string;
  tiers: { from_attainment: string; rate: string }[];
  multipliers: { type: string; factor: string }[];
  min_deal_amount: string;
  cap_per_period: string;
  effective_from: string;
  effective_to: string;
  /** Kept as the plan has it: the form does not edit the clawback policy yet (PATCH /comp-plans/{id} does). */
  clawback: CompPlan["clawback"];
}

const text = (value: number | null) => (value === null ? "" : String(value));
const numberOrNull = (value: string) => (value.trim() === "" ? null : Number(value));

export function formOf(plan: CompPlan): PlanForm {
  return {
    name: plan.name,
    description: plan.description ?? "",
    status: plan.status,
    period: plan.period,
    currency: plan.currency,
    quota: text(plan.quota),
    base_rate: text(plan.base_rate),
    tiers: plan.tiers.map((t) => ({ from_attainment: String(t.from_attainment), rate: String(t.rate) })),
    multipliers: Object.entries(plan.deal_type_multipliers).map(([type, factor]) => ({ type, factor: String(factor) })),
    min_deal_amount: text(plan.min_deal_amount),
    cap_per_period: text(plan.cap_per_period),
    effective_from: plan.effective_from,
    effective_to: plan.effective_to ?? "",
    clawback: plan.clawback,
  };
}

/** The form as the plan's fields (what the PATCH would set). */
function valuesOf(form: PlanForm): Required<Omit<PlanEditBody, "retroactive">> {
  const tiers = form.tiers.map((t) => ({ from_attainment: Number(t.from_attainment), rate: Number(t.rate) }));
  return {
    name: form.name,
    description: form.description.trim() === "" ? null : form.description,
    status: form.status,
    period: form.period,
    currency: form.currency.trim().toUpperCase(),
    quota: numberOrNull(form.quota),
    base_rate: numberOrNull(form.base_rate),
    tiers: tiers.length ? tiers : null,
    deal_type_multipliers: Object.fromEntries(
      form.multipliers.filter((m) => m.type.trim() !== "").map((m) => [m.type.trim(), Number(m.factor)]),
    ),
    min_deal_amount: numberOrNull(form.min_deal_amount),
    cap_per_period: numberOrNull(form.cap_per_period),
    effective_from: form.effective_from,
    effective_to: form.effective_to === "" ? null : form.effective_to,
    clawback: form.clawback,
  };
}

/** The PATCH body: only the fields the form changed (PATCH merges, API.md §2), so the change says what it is. */
export function editBody(plan: CompPlan, form: PlanForm): PlanEditBody {
  const current: Record<string, unknown> = { ...plan, tiers: plan.tiers.length ? plan.tiers : null };
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(valuesOf(form))) {
    if (JSON.stringify(value) !== JSON.stringify(current[field])) body[field] = value;
  }
  return body as PlanEditBody;
}

/** A 422's detail names a field as the API spells it (`tiers[1].rate`): the form's field it concerns. */
export function tierField(index: number, column: "from_attainment" | "rate"): string {
  return `tiers[${index}].${column}`;
}
