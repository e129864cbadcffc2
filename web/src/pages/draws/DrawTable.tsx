import { Badge, Button } from "@mantine/core";
import type { Draw } from "../../data/draws/queries";
import { date, money } from "../../lib/format";
import type { Column } from "../../ui/DataTable";
import { KIND_LABELS } from "./draw-text";

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** The draws' columns: whose, what is guaranteed, when, status and the balance later runs recover. */
export function drawColumns(props: { nameOf: (id: string) => string; onOpen: (draw: Draw) => void }): Column<Draw>[] {
  const { nameOf, onOpen } = props;
  return [
    { header: "Person", id: "person", rowHeader: true, cell: (draw) => nameOf(draw.user_id) },
    { header: "Kind", id: "kind", cell: (draw) => KIND_LABELS[draw.kind] },
    {
      header: "Guaranteed",
      id: "amount",
      numeric: true,
      props: nowrap,
      cell: (draw) => `${money(draw.amount, draw.currency)} a ${draw.period}`,
    },
    {
      header: "From – to",
      id: "window",
      props: nowrap,
      cell: (draw) => `${date(draw.starts_on)} – ${date(draw.ends_on)}`,
    },
    {
      header: "Status",
      id: "status",
      cell: (draw) => (
        <Badge variant="dot" color={draw.status === "active" ? "green.8" : "gray.7"} miw="max-content">
          {draw.status === "active" ? "Active" : "Ended"}
        </Badge>
      ),
    },
    {
      header: "Balance",
      id: "balance",
      numeric: true,
      props: nowrap,
      cell: (draw) => money(draw.balance, draw.currency),
    },
    {
      header: "Details",
      cell: (draw) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => onOpen(draw)}
          aria-label={`Open the draw of ${nameOf(draw.user_id)}`}
        >
          Open
        </Button>
      ),
    },
  ];
}
