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
];

/** Each plan of the period: quota, attainment and the band reached. */
export function StatementPlans({ statement }: { statement: Statement }) {
  if (statement.plans.length === 0) return null;
  return (
    <RecordTable
      label="Plans and attainment"
      testId="statement-plans"
      minWidth={480}
      columns={COLUMNS}
      rows={statement.plans}
      rowKey={(plan) => plan.plan_id}
      rowProps={(plan) => ({ "data-plan-id": plan.plan_id })}
    />
  );
}
