import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type CompPlan = Schemas["CompPlan"];
export type PlanStatus = CompPlan["status"];
export type Assignment = Schemas["PlanAssignment"];
export type PlanVersion = Schemas["CompPlanVersion"];

/** A page of comp plans (filter by status), newest first. */
export const plansQuery = defineQuery("GET /api/v1/comp-plans", (query: QueryOf<"listCompPlans">) =>
  queryOptions({
    queryKey: keys.compPlans.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/comp-plans", { params: { query } })),
  }),
);

/**
 * One comp plan (a rep sees the plans assigned to them; 404 for any other), with the ETag of the
 * representation it was read as: an edit sends it back as `If-Match`, so a change someone made in
 * between is refused (412) rather than overwritten.
 */
export const planQuery = defineQuery("GET /api/v1/comp-plans/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.compPlans.detail(id),
    queryFn: async () => {
      const result = await api.GET("/api/v1/comp-plans/{id}", { params: { path: { id } } });
      const plan = await unwrap(Promise.resolve(result));
      return { plan, etag: result.response.headers.get("ETag") };
    },
  }),
);

/** The plan's versions, newest first (the last 100: a plan rarely has more). */
export const planVersionsQuery = defineQuery("GET /api/v1/comp-plans/{id}/versions", (planId: string) =>
  queryOptions({
    queryKey: keys.compPlans.detail(planId, "versions"),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/comp-plans/{id}/versions", {
          params: { path: { id: planId }, query: { per_page: 100 } },
        }),
      ),
  }),
);

/**
 * Every plan's assignments the person sees (GET /plan-assignments), newest first: a page, and in
 * `meta.total` how many there are in all, however many plans hold them.
 */
export const allAssignmentsQuery = defineQuery(
  "GET /api/v1/plan-assignments",
  (query: QueryOf<"listAllPlanAssignments">) =>
    queryOptions({
      // Under the plans' root: every write of an assignment or a plan already makes it stale (refresh.ts).
      queryKey: keys.compPlans.list({ assignments: query }),
      queryFn: () => unwrap(api.GET("/api/v1/plan-assignments", { params: { query } })),
    }),
);

/** Every assignment of the plan, newest first (a plan has few: up to 1,000 are read). */
export const planAssignmentsQuery = defineQuery("GET /api/v1/comp-plans/{id}/assignments", (planId: string) =>
  queryOptions({
    queryKey: keys.compPlans.detail(planId, "assignments"),
    queryFn: async () => {
      const all: Assignment[] = [];
      for (let page = 1; page <= 10; page++) {
        const result = await unwrap(
          api.GET("/api/v1/comp-plans/{id}/assignments", {
            params: { path: { id: planId }, query: { page, per_page: 100 } },
          }),
        );
        all.push(...result.data);
        if (all.length >= result.meta.total || result.data.length === 0) break;
      }
      return all;
    },
  }),
);
