import { Badge, Table, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import type { Deal } from "../../data/deals/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { commissionLabel } from "../../ui/commission/commissionLabel";
import { type Column, DataTable } from "../../ui/DataTable";
import { recentDeals } from "./loader";

/** The person's latest deals by close date, each with its commission and a link to its page. */
export function RecentDeals({ userId }: { userId: string }) {
  const deals = useQuery(recentDeals(userId));
  const { session } = useRouteContext({ from: "/signed-in" });
  // Every deal of one answer has the same scope: the reader's (API.md §20 b).
  const scope = deals.data?.data[0]?.total_commission_scope ?? "deal";
  const label = commissionLabel(scope, session.user.role);
  const columns: Column<Deal>[] = [
    {
      header: "Deal",
      cell: (deal) => (
        <AnchorLink to="/deals/$dealId" params={{ dealId: deal.id }}>
          {deal.opportunity_name}
        </AnchorLink>
      ),
    },
    { header: "Closed", visibleFrom: "sm", cell: (deal) => date(deal.close_date) },
    {
      header: "Status",
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (deal) => (
        <Badge miw="max-content" variant="light" color="gray">
          {deal.status}
        </Badge>
      ),
    },
    {
      header: "ARR",
      numeric: true,
      visibleFrom: "sm",
      cell: (deal) => money(deal.arr_amount, deal.currency),
    },
    {
      header: label,
      numeric: true,
      props: () => ({ "data-testid": "commission", style: { whiteSpace: "nowrap" } }),
      cell: (deal) => money(deal.total_commission, deal.total_commission_currency),
    },
  ];
  return (
    <section aria-labelledby="recent-deals">
      <Title order={3} id="recent-deals" mb="sm">
        Recent deals
      </Title>
      <DataTable
        label="Recent deals"
        testId="recent-deals"
        minWidth={0}
        table={{ striped: true }}
        caption={
          <Table.Caption data-testid="recent-deals-caption">
            {scope === "deal"
              ? "Commission: the deal's total, for everyone credited on it."
              : `${label}: the lines on each deal that are ${session.user.role === "manager" ? "your team's" : "yours"}.`}
          </Table.Caption>
        }
        columns={columns}
        query={deals}
        rows={deals.data?.data}
        rowProps={(deal) => ({ "data-deal-id": deal.id })}
        loading="Loading deals"
        loadingLines={3}
        empty={{ title: "No deals yet", children: "Deals appear here once they are recorded." }}
      />
    </section>
  );
}
