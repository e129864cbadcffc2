import { Badge, Select, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import type { Deal, DealSort } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { date, money } from "../../lib/format";
import { AnchorLink, ButtonLink } from "../../ui/AnchorLink";
import { commissionLabel } from "../../ui/commission/commissionLabel";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { DEAL_STATUS_LABELS } from "../../ui/labels";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealFilters } from "./DealFilters";
import { dealListQuery, dealListQueryOf, FIRST_SORT } from "./list";
import { PAGE_SIZES } from "./schemas";

const route = getRouteApi("/signed-in/deals");
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

type SortField = "close_date" | "arr_amount" | "total_commission";

/** Every deal the person may see (API.md §11), searched, filtered and sorted by GET /deals. */
export function DealListPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { role, id: me } = session.user;
  const seesOthers = role !== "rep";
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const list = useQuery({ ...dealListQuery(search, seesOthers), placeholderData: keepPreviousData });
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  useRenderedMark(list.data !== undefined && people.data !== undefined);

  const query = dealListQueryOf(search, seesOthers);
  const sort = query.sort ?? FIRST_SORT;
  // Every deal of one answer has the reader's scope (API.md §20 b): a rep's or manager's share, else the deal's.
  const scope = list.data?.data[0]?.total_commission_scope ?? (seesOthers && role !== "manager" ? "deal" : "visible");
  const shareLabel = commissionLabel(scope, role);
  // Someone the person does not see owns a deal they see only through a split that credits them (or their team).
  const ownerName = (id: string) => (id === me ? "You" : (people.data?.get(id) ?? "Split partner"));
  const show = (next: Partial<typeof search>) => void navigate({ search: { ...search, page: undefined, ...next } });
  const sorted = (field: SortField) => ({
    direction: sort === field ? ("ascending" as const) : sort === `-${field}` ? ("descending" as const) : undefined,
    toggle: () => show({ sort: sort === `-${field}` ? field : (`-${field}` as DealSort) }),
  });
  const filtered = Boolean(search.q || search.status?.length || search.period || (seesOthers && search.owner_id));

  const columns: Column<Deal>[] = [
    {
      header: "Deal",
      rowHeader: true,
      cell: (deal) => (
        <AnchorLink to="/deals/$dealId" params={{ dealId: deal.id }} fw={600}>
          {deal.opportunity_name}
        </AnchorLink>
      ),
    },
    { header: "Owner", id: "owner", visibleFrom: "sm", cell: (deal) => ownerName(deal.owner_id) },
    {
      header: "Close date",
      id: "close-date",
      visibleFrom: "sm",
      props: nowrap,
      sort: sorted("close_date"),
      cell: (deal) => date(deal.close_date),
    },
    {
      header: "ARR",
      id: "arr",
      visibleFrom: "sm",
      numeric: true,
      props: nowrap,
      sort: sorted("arr_amount"),
      cell: (deal) => money(deal.arr_amount, deal.currency),
    },
    {
      header: "Status",
      id: "status",
      props: nowrap,
      cell: (deal) => (
        <Badge miw="max-content" variant="light" color={deal.status === "disputed" ? "red.9" : "gray"}>
          {DEAL_STATUS_LABELS[deal.status]}
        </Badge>
      ),
    },
    {
      header: shareLabel,
      id: "commission",
      numeric: true,
      props: nowrap,
      sort: sorted("total_commission"),
      cell: (deal) => money(deal.total_commission, deal.total_commission_currency),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="Deals"
        action={
          // POST /deals takes the write scope: of the roles, only admins' carries it (MAY.write).
          role === "admin" && <ButtonLink to="/deals/new">New deal</ButtonLink>
        }
      >
        {role === "rep"
          ? "Every deal that credits you, with your own commission on it."
          : role === "manager"
            ? "Your team's deals, with your team's commission on each."
            : "Every deal, with its total commission."}
      </PageHeader>
      <DealFilters
        search={search}
        onChange={(next) => show(next)}
        owners={seesOthers ? [...(people.data ?? new Map<string, string>()).entries()] : undefined}
      />
      <DataTable
        label="Deals"
        testId="deal-list"
        minWidth={760}
        narrowMinWidth={0}
        table={{ striped: true, highlightOnHover: true, verticalSpacing: "xs" }}
        columns={columns}
        rowProps={(deal) => ({ "data-deal-id": deal.id })}
        loading="Loading deals"
        loadingLines={8}
        empty={{ title: "No deals yet", children: "Deals appear here once they are recorded." }}
        filtered={
          filtered
            ? {
                title: "No deals match",
                children: "No deal matches these filters.",
                onClear: () => void navigate({ search: {} }),
              }
            : undefined
        }
        {...listOf(list, {
          noun: ["deal", "deals"],
          countId: "deal-list-total",
          onPage: (page) => void navigate({ search: { ...search, page } }),
          extra: (
            <Select
              aria-label="Deals per page"
              data={PAGE_SIZES.map(String)}
              value={String(query.per_page)}
              onChange={(v) => v && show({ per_page: Number(v) })}
              w={80}
              allowDeselect={false}
            />
          ),
        })}
      />
    </Stack>
  );
}
