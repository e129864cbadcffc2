import { Anchor, Checkbox } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { Deal } from "../../data/deals/queries";
import { date, money } from "../../lib/format";
import type { Column } from "../../ui/DataTable";

/** Approved deals, each with a checkbox; the header's checkbox takes or drops the whole page. */
export function dealColumns(props: {
  deals: Deal[];
  selected: ReadonlyMap<string, Deal>;
  toggle: (deal: Deal, on: boolean) => void;
  nameOf: (id: string) => string;
}): Column<Deal>[] {
  const { deals, selected, toggle, nameOf } = props;
  const onPage = deals.filter((d) => selected.has(d.id)).length;
  return [
    {
      header: (
        <Checkbox
          aria-label="Select every deal on this page"
          checked={onPage > 0 && onPage === deals.length}
          indeterminate={onPage > 0 && onPage < deals.length}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            for (const deal of deals) toggle(deal, on);
          }}
        />
      ),
      width: 40,
      cell: (deal) => (
        <Checkbox
          aria-label={`Select ${deal.opportunity_name}`}
          checked={selected.has(deal.id)}
          onChange={(e) => toggle(deal, e.currentTarget.checked)}
        />
      ),
    },
    {
      header: "Deal",
      cell: (deal) => (
        <Anchor c="indigo.9" renderRoot={(p) => <Link {...p} to="/deals/$dealId" params={{ dealId: deal.id }} />}>
          {deal.opportunity_name}
        </Anchor>
      ),
    },
    { header: "Total commission", numeric: true, cell: (deal) => money(deal.total_commission, deal.currency) },
    { header: "Owner", cell: (deal) => nameOf(deal.owner_id) },
    { header: "Close date", cell: (deal) => date(deal.close_date) },
    { header: "Approved", cell: (deal) => (deal.approved_at ? date(deal.approved_at) : "—") },
  ];
}
