import { Anchor, Group, Pagination, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { payoutsQuery } from "../../data/payouts/queries";
import { money } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";

const GROUPS_PAGE_SIZE = 25;

/** What is owed, by rep, period and currency: every total is the API's (GET /payouts). */
export function PayoutGroups({ showDealsOf }: { showDealsOf: (userId: string) => void }) {
  const [page, setPage] = useState(1);
  const groups = useQuery({ ...payoutsQuery({ page, per_page: GROUPS_PAGE_SIZE }), placeholderData: keepPreviousData });
  return (
    <Stack gap="sm">
      <Title order={3}>Owed by rep and period</Title>
      {groups.isPending && <LoadingState label="Loading what is owed" lines={3} />}
      {groups.isError && <ErrorState error={groups.error} retry={() => void groups.refetch()} />}
      {groups.isSuccess && groups.data.meta.total === 0 && (
        <EmptyState title="Nothing to pay">Every approved commission line has been paid.</EmptyState>
      )}
      {groups.isSuccess && groups.data.meta.total > 0 && (
        <>
          <ScrollTable minWidth={560} label="Owed by rep and period">
            <Table fz="sm" aria-label="Owed by rep and period" data-testid="payout-groups">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Rep</Table.Th>
                  <Table.Th>Period</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                  <Table.Th ta="right">Lines</Table.Th>
                  <Table.Th ta="right">Deals</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.data.data.map((g) => (
                  <Table.Tr
                    key={`${g.user_id} ${g.period} ${g.currency}`}
                    data-testid="payout-group"
                    data-user-id={g.user_id}
                    data-period={g.period}
                    data-currency={g.currency}
                  >
                    <Table.Td>
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        c="indigo.9"
                        title={`Show the deals ${g.user_name} owns below`}
                        onClick={() => showDealsOf(g.user_id)}
                      >
                        {g.user_name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{g.period}</Table.Td>
                    <Table.Td ta="right" fw={600} data-testid="payout-group-total">
                      {money(g.total, g.currency)}
                    </Table.Td>
                    <Table.Td ta="right">{g.line_count}</Table.Td>
                    <Table.Td ta="right">{g.deal_count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {groups.data.meta.total} group{groups.data.meta.total === 1 ? "" : "s"}
            </Text>
            {groups.data.meta.total > GROUPS_PAGE_SIZE && (
              <Pagination
                total={Math.ceil(groups.data.meta.total / GROUPS_PAGE_SIZE)}
                value={page}
                onChange={setPage}
                size="sm"
                aria-label="Payout group pages"
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
