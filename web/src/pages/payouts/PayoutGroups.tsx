import { Anchor, Stack, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type PayoutGroup, payoutsQuery } from "../../data/payouts/queries";
import { money } from "../../lib/format";
import { type Column, DataTable, listOf } from "../../ui/DataTable";

const GROUPS_PAGE_SIZE = 25;

/** What is owed, by rep, period and currency: every total is the API's (GET /payouts). */
export function PayoutGroups(props: {
  page: number;
  onPage: (page: number) => void;
  showDealsOf: (userId: string) => void;
}) {
  const groups = useQuery({
    ...payoutsQuery({ page: props.page, per_page: GROUPS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const columns: Column<PayoutGroup>[] = [
    {
      header: "Rep",
      cell: (g) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="indigo.9"
          title={`Show the deals ${g.user_name} owns below`}
          onClick={() => props.showDealsOf(g.user_id)}
        >
          {g.user_name}
        </Anchor>
      ),
    },
    { header: "Period", cell: (g) => g.period },
    {
      header: "Total",
      numeric: true,
      props: () => ({ fw: 600, "data-testid": "payout-group-total" }),
      cell: (g) => money(g.total, g.currency),
    },
    { header: "Lines", numeric: true, cell: (g) => g.line_count },
    { header: "Deals", numeric: true, cell: (g) => g.deal_count },
  ];
  return (
    <Stack gap="sm">
      <Title order={3}>Owed by rep and period</Title>
      <DataTable
        label="Owed by rep and period"
        testId="payout-groups"
        minWidth={560}
        table={{ fz: "sm" }}
        columns={columns}
        rowKey={(g) => `${g.user_id} ${g.period} ${g.currency}`}
        rowProps={(g) => ({
          "data-testid": "payout-group",
          "data-user-id": g.user_id,
          "data-period": g.period,
          "data-currency": g.currency,
        })}
        loading="Loading what is owed"
        loadingLines={3}
        empty={{ title: "Nothing to pay", children: "Every approved commission line has been paid." }}
        {...listOf(groups, { noun: ["group", "groups"], onPage: props.onPage, countId: "group-total" })}
      />
    </Stack>
  );
}
