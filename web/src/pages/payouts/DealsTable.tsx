import { Anchor, Checkbox, Table } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import type { Deal } from "../../data/deals/queries";
import { date, money } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";

interface Props {
  deals: Deal[];
  selected: ReadonlyMap<string, Deal>;
  toggle: (deal: Deal, on: boolean) => void;
  nameOf: (id: string) => string;
}

/** Approved deals, each with a checkbox; the header's checkbox takes or drops the whole page. */
export function DealsTable({ deals, selected, toggle, nameOf }: Props) {
  const onPage = deals.filter((d) => selected.has(d.id)).length;
  return (
    <ScrollTable minWidth={720} label="Approved deals to pay">
      <Table fz="sm" aria-label="Approved deals to pay" data-testid="deals-to-pay">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select every deal on this page"
                checked={onPage > 0 && onPage === deals.length}
                indeterminate={onPage > 0 && onPage < deals.length}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  for (const deal of deals) toggle(deal, on);
                }}
              />
            </Table.Th>
            <Table.Th>Deal</Table.Th>
            <Table.Th ta="right">Total commission</Table.Th>
            <Table.Th>Owner</Table.Th>
            <Table.Th>Close date</Table.Th>
            <Table.Th>Approved</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deals.map((deal) => (
            <Table.Tr key={deal.id} data-testid="deal-to-pay" data-deal-id={deal.id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${deal.opportunity_name}`}
                  checked={selected.has(deal.id)}
                  onChange={(e) => toggle(deal, e.currentTarget.checked)}
                />
              </Table.Td>
              <Table.Td>
                <Anchor
                  c="indigo.9"
                  renderRoot={(props) => <Link {...props} to="/deals/$dealId" params={{ dealId: deal.id }} />}
                >
                  {deal.opportunity_name}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">{money(deal.total_commission, deal.currency)}</Table.Td>
              <Table.Td>{nameOf(deal.owner_id)}</Table.Td>
              <Table.Td>{date(deal.close_date)}</Table.Td>
              <Table.Td>{deal.approved_at ? date(deal.approved_at) : "—"}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
