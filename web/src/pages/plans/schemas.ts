import type { PlanStatus } from "../../data/comp-plans/queries";
import { oneOf, page, searchSchema } from "../../lib/search";

export const PLAN_STATUSES = ["active", "draft", "archived"] as const satisfies readonly PlanStatus[];

/** /plans: the status shown and the page. */
export const plansSearch = searchSchema({ status: oneOf(PLAN_STATUSES), page: page() });
