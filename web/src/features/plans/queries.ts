import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type CompPlan = Schemas["CompPlan"];
export type PlanStatus = CompPlan["status"];
export type Assignment = Schemas["PlanAssignment"];
export type PlanImpact = Schemas["PlanImpact"];
export type PlanImpactLine = Schemas["PlanImpactLine"];
export type PlanEditBody = Schemas["UpdateCompPlanInput"];

export const PLAN_STATUSES: readonly PlanStatus[] = ["active", "draft", "archived"];

/** One key factory for plans: entity first, so invalidating ["plans"] reaches every plan query. */
export const planKeys = {
  all: ["plans"] as const,
  list: (status: PlanStatus | undefined, page: number) => ["plans", "list", status ?? "any", page] as const,
  detail: (id: string) => ["plans", id] as const,
  editable: (id: string) => ["plans", id, "editable"] as const,
  assignments: (id: string) => ["plans", id, "assignments"] as const,
  versions: (id: string) => ["plans", id, "versions"] as const,
};

/** One comp plan (a rep sees the plans assigned to them; 404 for any other). */
export const planQuery = (id: string) =>
  queryOptions({
    queryKey: planKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/comp-plans/{id}", { params: { path: { id } } })),
    staleTime: 5 * 60_000,
  });

export const PLANS_PAGE_SIZE = 25;

export const plansQuery = (status: PlanStatus | undefined, page: number) =>
  queryOptions({
    queryKey: planKeys.list(status, page),
    queryFn: () =>
      unwrap(api.GET("/api/v1/comp-plans", { params: { query: { status, page, per_page: PLANS_PAGE_SIZE } } })),
  });

/**
 * The plan with the ETag of the representation it was read as: an edit sends it back as `If-Match`,
 * so a change someone made in between is refused (412) rather than overwritten.
 */
export const editablePlanQuery = (id: string) =>
  queryOptions({
    queryKey: planKeys.editable(id),
    queryFn: async () => {
      const result = await api.GET("/api/v1/comp-plans/{id}", { params: { path: { id } } });
      const plan = await unwrap(Promise.resolve(result));
      return { plan, etag: result.response.headers.get("ETag") };
    },
  });

/** Every assignment of the plan, newest first (a plan has few: up to 1,000 are read). */
export const assignmentsQuery = (planId: string) =>
  queryOptions({
    queryKey: planKeys.assignments(planId),
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
  });

export type PlanVersion = Schemas["CompPlanVersion"];

/** The plan's versions, newest first (the last 100: a plan rarely has more). */
export const planVersionsQuery = (planId: string) =>
  queryOptions({
    queryKey: planKeys.versions(planId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/comp-plans/{id}/versions", {
          params: { path: { id: planId }, query: { per_page: 100 } },
        }),
      ),
  });

export interface Person {
  id: string;
  name: string;
  email: string;
  role: string;
  active: boolean;
}

/** Everyone the person may see (finance and admins: everyone), to name assignees and pick a new one. */
export const usersQuery = queryOptions({
  queryKey: ["users", "everyone"],
  queryFn: async () => {
    const all: Person[] = [];
    for (let page = 1; page <= 20; page++) {
      const result = await unwrap(api.GET("/api/v1/users", { params: { query: { page, per_page: 100 } } }));
      all.push(...result.data);
      if (all.length >= result.meta.total || result.data.length === 0) break;
    }
    return all;
  },
  staleTime: 60_000,
});
