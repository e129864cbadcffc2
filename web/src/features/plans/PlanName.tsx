import { useQuery } from "@tanstack/react-query";
import { planQuery } from "./queries";

/** A plan by its name when the person may read the plan, else by its id (what the line itself names). */
export function PlanName({ id }: { id: string }) {
  const plan = useQuery(planQuery(id));
  return <>{plan.data?.name ?? id}</>;
}
