import { Badge, Table, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { commissionLabel } from "../../ui/commission/commissionLabel";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { recentDeals } from "./loader";

/** The person's latest deals by close date, each with its commission and a link to its page. */
export function RecentDeals({ userId }: { userId: string }) {
  const deals = useQuery(recentDeals(userId));
  const { session } = useRouteContext({ from: "/signed-in" });
  // Every deal of one answer has the same scope: the reader's (API.md §20 b).
  const scope = deals.data?.data[0]?.total_commission_scope ?? "deal";
  const label = commissionLabel(scope, session.user.role);
  return (
    <section aria-labelledby="recent-deals">
      <Title order={3} id="recent-deals" mb="sm">
        Recent deals
      </Title>
      {deals.isPending ? (
        <LoadingState label="Loading deals" lines={3} />
      ) : deals.error ? (
        <ErrorState error={deals.error} retry={() => void deals.refetch()} />
      ) : deals.data.data.length === 0 ? (
        <EmptyState title="No deals yet">Deals appear here once they are recorded.</EmptyState>
      ) : (
        <Table striped data-testid="recent-deals">
          <Table.Caption data-testid="recent-deals-caption">
            {scope === "deal"
              ? "Commission: the deal's total, for everyone credited on it."
              : `${label}: the lines on each deal that are ${session.user.role === "manager" ? "your team's" : "yours"}.`}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Deal</Table.Th>
              <Table.Th visibleFrom="sm">Closed</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                ARR
              </Table.Th>
              <Table.Th ta="right">{label}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deals.data.data.map((deal) => (
              <Table.Tr key={deal.id} data-deal-id={deal.id}>
                <Table.Td>
                  <AnchorLink to="/deals/$dealId" params={{ dealId: deal.id }}>
                    {deal.opportunity_name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td visibleFrom="sm">{date(deal.close_date)}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>
                  <Badge miw="max-content" variant="light" color="gray">
                    {deal.status}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  {money(deal.arr_amount, deal.currency)}
                </Table.Td>
                <Table.Td ta="right" data-testid="commission" style={{ whiteSpace: "nowrap" }}>
                  {money(deal.total_commission, deal.currency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}
