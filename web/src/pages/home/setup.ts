// An admin's setup checklist (#28): each step is done once the API lists at least one of its records.

export type Path = "/plans" | "/people" | "/deals" | "/api-keys" | "/approvals" | "/dispute-queue" | "/payouts";

export interface Step {
  id: string;
  label: string;
  count: number;
  to: Path;
  hint: string;
}

/** How many of each the API lists (meta.total; assignments: every plan's, GET /plan-assignments). */
export interface SetupCounts {
  plans: number;
  people: number;
  assignments: number;
  deals: number;
  apiKeys: number;
}

/** The checklist's steps in the order a company sets up: plans, people, assignments, deals, keys. */
export function setupSteps(counts: SetupCounts): Step[] {
  return [
    {
      id: "plans",
      label: "Comp plans",
      count: counts.plans,
      to: "/plans",
      hint: "Create a plan: its rate, quota and tiers.",
    },
    {
      id: "people",
      label: "Reps",
      count: counts.people,
      to: "/people",
      hint: "Invite or create the people who earn.",
    },
    {
      id: "assignments",
      label: "Plan assignments",
      count: counts.assignments,
      to: "/plans",
      hint: "Assign a plan to each rep (on the plan's page).",
    },
    {
      id: "deals",
      label: "Deals",
      count: counts.deals,
      to: "/deals",
      hint: "Send deals from your CRM with an API key (POST /deals, or PUT /deals/by-external-id/{id} to sync).",
    },
    {
      id: "api-keys",
      label: "API keys",
      count: counts.apiKeys,
      to: "/api-keys",
      hint: "Create a key for your CRM or scripts.",
    },
  ];
}

/** Set up once every step has one: the home becomes the task inbox. */
export const isSetUp = (steps: readonly Step[]) => steps.every((step) => step.count > 0);
