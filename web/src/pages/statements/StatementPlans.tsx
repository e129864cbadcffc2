import type { Statement, StatementPlan } from "../../data/statements/queries";
import { money, percent } from "../../lib/format";
import { type Column, RecordTable } from "../../ui/DataTable";

const COLUMNS: Column<StatementPlan>[] = [
  { header: "Plan", cell: (plan) => plan.plan_name },
  { header: "Quota", numeric: true, cell: (plan) => (plan.quota === null ? "—" : money(plan.quota, plan.currency)) },
  { header: "Attainment", numeric: true, cell: (plan) => money(plan.attainment, plan.currency) },
  {
    header: "Of quota",
    numeric: true,
    cell: (plan) => (plan.attainment_ratio === null ? "—" : percent(plan.attainment_ratio)),
  },
  {
    header: "Rate reached",
    numeric: true,
    cell: (plan) => (plan.current_rate === null ? "—" : percent(plan.current_rate)),
  },
  {
    header: "Cap used",
    id: "cap",
    numeric: true,
    cell: (plan) =>
      plan.cap_per_period === null
        ? "—"
        : `${money(plan.earned, plan.currency)} of ${money(plan.cap_per_period, plan.currency)}${plan.cap_reached ? " (reached)" : ""}`,
  },
];

/** Each plan of the period: quota, attainment, the band reached and how much of its cap the lines use. */
export function StatementPlans({ statement }: { statement: Statement }) {
  if (statement.plans.length === 0) return null;
  return (
    <RecordTable
      label="Plans and attainment"
      testId="statement-plans"
      minWidth={600}
      columns={COLUMNS}
      rows={statement.plans}
      rowKey={(plan) => plan.plan_id}
      rowProps={(plan) => ({ "data-plan-id": plan.plan_id })}
    />
  );
}
