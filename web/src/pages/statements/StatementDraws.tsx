import { Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type Draw, drawsQuery } from "../../data/draws/queries";
import type { Statement } from "../../data/statements/queries";
import { date, money, signedMoney } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";

type Line = Statement["draw_lines"][number];
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** A draw line's explanation (API.md §18): what the draw guaranteed, what was earned, the balance. */
type DrawExplanation = {
  summary: string;
  draw_id: string;
  period: string;
  amount: string;
  earned: string | null;
  advance?: string;
  recovery?: string;
  balance_before: string;
  balance_after: string;
};
const explained = (line: Line) => line.explanation as unknown as DrawExplanation;

const COLUMNS: Column<Line>[] = [
  {
    header: "Draw line",
    id: "type",
    rowHeader: true,
    props: nowrap,
    cell: (line) => (line.amount >= 0 ? "Advance" : "Recovery"),
  },
  { header: "Period", id: "period", props: nowrap, cell: (line) => explained(line).period },
  {
    header: "Amount",
    id: "amount",
    numeric: true,
    props: () => ({ "data-testid": "draw-amount", ...nowrap() }),
    cell: (line) => signedMoney(line.amount, line.currency),
  },
  {
    header: "Guaranteed",
    id: "guaranteed",
    numeric: true,
    props: nowrap,
    cell: (line) => money(explained(line).amount, line.currency),
  },
  {
    header: "Earned",
    id: "earned",
    numeric: true,
    props: nowrap,
    cell: (line) => {
      const earned = explained(line).earned;
      return earned === null ? "—" : money(earned, line.currency);
    },
  },
  {
    header: "Balance before → after",
    id: "balance",
    numeric: true,
    props: nowrap,
    cell: (line) =>
      `${money(explained(line).balance_before, line.currency)} → ${money(explained(line).balance_after, line.currency)}`,
  },
  {
    header: "Status",
    id: "status",
    props: nowrap,
    cell: (line) => (
      <Stack gap={2} align="flex-start">
        <Badge miw="max-content" variant="light" color={line.status === "paid" ? "teal" : "blue"}>
          {line.status}
        </Badge>
        {line.payout_run && (
          <Text size="xs" c="gray.7" title={line.payout_run.id}>
            {line.payout_run.status === "finalized"
              ? `Paid on ${date(line.payout_run.pay_date)}`
              : `In the run paying ${date(line.payout_run.pay_date)}`}
          </Text>
        )}
      </Stack>
    ),
  },
  {
    header: "How it was computed",
    id: "explanation",
    props: () => ({ fz: "sm", miw: 240 }),
    cell: (line) => line.explanation.summary,
  },
];

/**
 * The statement's draw lines (advances > 0, recoveries < 0) with their explanation, and the person's
 * draws with their balance as GET /draws?user_id= reads them (API.md §18). Nothing when there are none.
 */
export function StatementDraws({ statement, userId }: { statement: Statement; userId: string }) {
  const draws = useQuery(drawsQuery({ user_id: userId, per_page: 100 }));
  const list = draws.data?.data ?? [];
  if (statement.draw_lines.length === 0 && list.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="statement-draws">
      <Title order={2} size="h4">
        Draw
      </Title>
      {list.map((draw) => (
        <DrawCard key={draw.id} draw={draw} />
      ))}
      {statement.draw_lines.length > 0 ? (
        <RecordTable
          label="Draw lines"
          testId="statement-draw-lines"
          minWidth={900}
          table={{ striped: true }}
          columns={COLUMNS}
          rows={statement.draw_lines}
          rowProps={(line) => ({ "data-line-id": line.id, "data-draw-id": line.draw_id })}
        />
      ) : (
        <Text size="sm" c="gray.7">
          No draw line in {statement.period}: a payout run settles each of the draw's periods.
        </Text>
      )}
    </Stack>
  );
}

function DrawCard({ draw }: { draw: Draw }) {
  return (
    <Card withBorder padding="sm" data-testid="statement-draw" data-draw-id={draw.id}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {draw.kind === "recoverable" ? "Recoverable" : "Non-recoverable"} draw of {money(draw.amount, draw.currency)}{" "}
          a {draw.period}, {date(draw.starts_on)} – {date(draw.ends_on)} ({draw.status})
        </Text>
        <Text size="sm" fw={600}>
          Balance <span data-testid="statement-draw-balance">{money(draw.balance, draw.currency)}</span>
        </Text>
      </Group>
      <AnchorLink to="/draws" search={{ draw: draw.id }} size="sm" className="no-print">
        See the draw's periods and entries
      </AnchorLink>
    </Card>
  );
}
