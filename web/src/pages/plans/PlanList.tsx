import type { CompPlan } from "../../data/comp-plans/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import type { Column } from "../../ui/DataTable";
import { PlanStatusBadge } from "./PlanStatusBadge";

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** The plans, one a row, each name a link to its page. */
export const PLAN_COLUMNS: Column<CompPlan>[] = [
  {
    header: "Name",
    cell: (plan) => (
      <AnchorLink to="/plans/$planId" params={{ planId: plan.id }} fw={500}>
        {plan.name}
      </AnchorLink>
    ),
  },
  { header: "Status", id: "status", cell: (plan) => <PlanStatusBadge status={plan.status} /> },
  { header: "Kind", id: "kind", cell: (plan) => (plan.kind === "override" ? "Override" : "Standard") },
  { header: "Version", id: "version", numeric: true, cell: (plan) => `v${plan.version}` },
  { header: "Period", id: "period", cell: (plan) => plan.period },
  { header: "Currency", id: "currency", cell: (plan) => plan.currency },
  {
    header: "Quota",
    id: "quota",
    numeric: true,
    props: nowrap,
    cell: (plan) => (plan.quota === null ? "—" : money(plan.quota, plan.currency)),
  },
  { header: "Effective", id: "effective", props: nowrap, cell: effectiveSpan },
];

/** "Jan 1, 2026 – open-ended" */
export function effectiveSpan(span: { effective_from: string; effective_to: string | null }): string {
  return `${date(span.effective_from)} – ${span.effective_to === null ? "open-ended" : date(span.effective_to)}`;
}
