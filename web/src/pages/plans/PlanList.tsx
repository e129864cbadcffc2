import { Table } from "@mantine/core";
import type { CompPlan } from "../../data/comp-plans/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";
import { PlanStatusBadge } from "./PlanStatusBadge";

/** The plans, one a row, each name a link to its page. */
export function PlanList({ plans }: { plans: CompPlan[] }) {
  return (
    <ScrollTable minWidth={760} label="Plans">
      <Table striped aria-label="Plans">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Version</Table.Th>
            <Table.Th>Period</Table.Th>
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Quota</Table.Th>
            <Table.Th>Effective</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plans.map((plan) => (
            <Table.Tr key={plan.id} data-plan-id={plan.id}>
              <Table.Td>
                <AnchorLink to="/plans/$planId" params={{ planId: plan.id }} fw={500}>
                  {plan.name}
                </AnchorLink>
              </Table.Td>
              <Table.Td data-col="status">
                <PlanStatusBadge status={plan.status} />
              </Table.Td>
              <Table.Td ta="right" data-col="version">
                v{plan.version}
              </Table.Td>
              <Table.Td data-col="period">{plan.period}</Table.Td>
              <Table.Td data-col="currency">{plan.currency}</Table.Td>
              <Table.Td ta="right" data-col="quota" style={{ whiteSpace: "nowrap" }}>
                {plan.quota === null ? "—" : money(plan.quota, plan.currency)}
              </Table.Td>
              <Table.Td data-col="effective" style={{ whiteSpace: "nowrap" }}>
                {effectiveSpan(plan)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** "Jan 1, 2026 – open-ended" */
export function effectiveSpan(span: { effective_from: string; effective_to: string | null }): string {
  return `${date(span.effective_from)} – ${span.effective_to === null ? "open-ended" : date(span.effective_to)}`;
}
