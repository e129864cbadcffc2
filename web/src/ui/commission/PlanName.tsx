import { useQuery } from "@tanstack/react-query";
import { planQuery } from "../../data/comp-plans/queries";

const nameOf = (read: { plan: { name: string } }) => read.plan.name;

/** A plan by its name when the person may read the plan, else by its id (what the line itself names). */
export function PlanName({ id }: { id: string }) {
  // Names change rarely: every line of a page names its plan without asking again for 5 minutes.
  const name = useQuery({ ...planQuery(id), select: nameOf, staleTime: 5 * 60_000 });
  return <>{name.data ?? id}</>;
}
