import { Badge } from "@mantine/core";
import type { PlanStatus } from "../../data/comp-plans/queries";

const COLORS: Record<PlanStatus, string> = { active: "teal.9", draft: "yellow.9", archived: "gray.7" };

export function PlanStatusBadge({ status }: { status: PlanStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" miw="max-content">
      {status}
    </Badge>
  );
}
