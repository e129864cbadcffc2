import { Card, Stack, Table, Text, Title } from "@mantine/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import type { Statement } from "../../data/statements/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { Money } from "../../ui/Money";
import { ScrollTable } from "../../ui/ScrollTable";
import { currentStatements } from "./loader";
import { overridesByReport } from "./overrides-by-report";

/**
 * A manager's overrides in their current periods, by the report whose credit earned them (API.md §16):
 * one card per current statement holding override lines. It reads the statements the manager's own
 * home reads (the same queries: no request of its own but the names); their loading and errors show
 * there.
 */
export function OverridesByReportCards({ managerId }: { managerId: string }) {
  const results = useQueries({ queries: currentStatements(managerId) });
  const statements = results
    .map((r) => r.data)
    .filter((s): s is Statement => s?.lines.some((line) => line.kind === "override") === true);
  if (statements.length === 0) return null;
  return (
    <>
      {statements.map((statement) => (
        <OverridesByReport key={statement.period} statement={statement} />
      ))}
    </>
  );
}

function OverridesByReport({ statement }: { statement: Statement }) {
  const names = useQuery({ ...everyoneQuery(), select: namesOf });
  const nameOf = (id: string) => names.data?.get(id) ?? id;
  const { rows } = overridesByReport(statement.lines);
  const currency = statement.lines.find((line) => line.kind === "override")?.currency ?? "USD";
  const deals = new Set(statement.lines.filter((line) => line.kind === "override").map((line) => line.deal_id)).size;
  const id = `overrides-by-report-${statement.period}`;
  return (
    <Card withBorder component="section" aria-labelledby={id} data-period={statement.period}>
      <Stack gap="xs">
        <Title order={2} size="h3" id={id}>
          Overrides by report, {statement.period}
        </Title>
        <Text size="sm" c="gray.7">
          What your override lines pay for each person credited below you: each line split by level, then by their
          credit.
        </Text>
        <ScrollTable minWidth={520} label={`Overrides by report, ${statement.period}`}>
          <Table
            aria-label={`Overrides by report, ${statement.period}`}
            striped
            fz="sm"
            data-testid="overrides-by-report"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Person</Table.Th>
                <Table.Th scope="col" ta="right">
                  Depth
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Deals
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Their credit
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Override
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={`${row.user_id}@${row.depth}`} data-user-id={row.user_id} data-depth={row.depth}>
                  <Table.Th scope="row" fw={500} data-col="person">
                    <AnchorLink to="/people/$userId" params={{ userId: row.user_id }}>
                      {nameOf(row.user_id)}
                    </AnchorLink>
                  </Table.Th>
                  <Table.Td ta="right" data-col="depth">
                    {row.depth}
                  </Table.Td>
                  <Table.Td ta="right" data-col="deals">
                    {row.deals}
                  </Table.Td>
                  <Table.Td ta="right" data-col="credit" data-value={row.credit}>
                    <Money amount={row.credit} currency={currency} />
                  </Table.Td>
                  <Table.Td ta="right" data-col="override" data-value={row.override}>
                    {money(row.override, currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr data-testid="overrides-total">
                <Table.Th scope="row">Total</Table.Th>
                <Table.Td />
                <Table.Td ta="right" data-col="deals">
                  {deals}
                </Table.Td>
                <Table.Td />
                <Table.Td ta="right" fw={700} data-col="override" data-value={statement.totals.override}>
                  {money(statement.totals.override, currency)}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </ScrollTable>
      </Stack>
    </Card>
  );
}
