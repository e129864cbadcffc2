import { Anchor, Stack, Text, Title } from "@mantine/core";
import type { Payee, PayoutRunDetail } from "../../data/payout-runs/queries";
import { money } from "../../lib/format";
import { type Column, RecordTable } from "../../ui/DataTable";
import { EmptyState } from "../../ui/states";

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });
const amount = (header: string, of: (p: Payee) => number, id: string): Column<Payee> => ({
  header,
  id,
  numeric: true,
  props: () => ({ ...nowrap(), "data-testid": `payee-${id}` }),
  cell: (p) => money(of(p), p.currency),
});

/** Each person and currency the run pays: gross by kind, what was recovered of a deficit, net pay. */
export function RunPayees(props: { run: PayoutRunDetail; selected?: string; onSelect: (userId: string) => void }) {
  const columns: Column<Payee>[] = [
    {
      header: "Person",
      id: "person",
      rowHeader: true,
      cell: (p) => (
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={p.user_id === props.selected ? 700 : undefined}
          title={`Show ${p.name}'s lines below`}
          onClick={() => props.onSelect(p.user_id)}
        >
          {p.name}
        </Anchor>
      ),
    },
    { header: "Payroll id", id: "payroll", cell: (p) => p.payroll_id ?? "—" },
    amount("Plan", (p) => p.gross.plan, "plan"),
    amount("SPIFF", (p) => p.gross.spiff, "spiff"),
    amount("Adjustments", (p) => p.gross.adjustment, "adjustment"),
    amount("Clawbacks", (p) => p.gross.clawback, "clawback"),
    amount("Owed before", (p) => p.deficit_brought_forward, "brought-forward"),
    amount("Recovered", (p) => p.recovered, "recovered"),
    amount("Net pay", (p) => p.net_pay, "net-pay"),
    amount("Still owed", (p) => p.deficit_carried_forward, "carried-forward"),
  ];
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        People
      </Title>
      <Text size="sm" c="gray.7">
        Net pay is the lines' total less what is recovered of an earlier deficit; it is never negative. What a person
        still owes is carried to their next run.
      </Text>
      {props.run.payees.length === 0 ? (
        <EmptyState title="Nobody is paid in this run" />
      ) : (
        <RecordTable
          label="People paid in this run"
          testId="run-payees"
          minWidth={1000}
          table={{ fz: "sm", striped: true }}
          columns={columns}
          rows={props.run.payees}
          rowKey={(p) => `${p.user_id} ${p.currency}`}
          rowProps={(p) => ({ "data-testid": "payee", "data-user-id": p.user_id, "data-currency": p.currency })}
        />
      )}
    </Stack>
  );
}
