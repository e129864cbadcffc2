import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import type { PlanEditBody, PlanImpact } from "./queries";

export type Job = Schemas["Job"];
export type CreateAssignmentBody = NonNullable<
  operations["assignPlanToUser"]["requestBody"]
>["content"]["application/json"];
export type UpdateAssignmentBody = NonNullable<
  operations["updatePlanAssignment"]["requestBody"]
>["content"]["application/json"];

/** How many changed lines the impact shows: the largest, as the API orders them. */
export const IMPACT_LINES = 10;

/** The impact as answered now, or the job computing it (a large plan: 202, API.md §12). */
export type ImpactAnswer = { impact: PlanImpact; job?: undefined } | { impact?: undefined; job: Job };

/** POST /comp-plans/{id}/impact with the PATCH body the form would send: nothing is written. */
export function usePreviewImpact(planId: string) {
  return useMutation({
    mutationFn: async (body: PlanEditBody): Promise<ImpactAnswer> => {
      const result = await api.POST("/api/v1/comp-plans/{id}/impact", {
        params: { path: { id: planId }, query: { per_page: IMPACT_LINES } },
        body,
      });
      const data = await unwrap(Promise.resolve(result));
      return result.response.status === 202 ? { job: data as Job } : { impact: data as PlanImpact };
    },
  });
}

const DONE: readonly Job["status"][] = ["succeeded", "failed"];

/** A background job, asked again every second until it has finished. */
export const jobQuery = (jobId: string) =>
  queryOptions({
    queryKey: ["jobs", jobId],
    queryFn: () => unwrap(api.GET("/api/v1/jobs/{id}", { params: { path: { id: jobId } } })),
    refetchInterval: (query) => (query.state.data && DONE.includes(query.state.data.status) ? false : 1000),
  });

/**
 * PATCH /comp-plans/{id} with the ETag the edit started from (`If-Match`): a change someone made since
 * is refused with 412 and nothing is saved. Everything the change moves is read again.
 */
export function useApplyPlanEdit(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: PlanEditBody; etag: string | null }) =>
      unwrap(
        api.PATCH("/api/v1/comp-plans/{id}", {
          params: { path: { id: planId }, header: etag ? { "If-Match": etag } : {} },
          body,
        }),
      ),
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}

/** A plan or assignment change recalculates lines: plans, statements, deals and homes are read again. */
function invalidateAfterPlanChange(queryClient: ReturnType<typeof useQueryClient>) {
  return queryClient.invalidateQueries({
    predicate: (query) => ["plans", "deals", "statement", "home"].includes(String(query.queryKey[0])),
  });
}

export function useCreateAssignment(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAssignmentBody) =>
      unwrap(api.POST("/api/v1/comp-plans/{id}/assignments", { params: { path: { id: planId } }, body })),
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}

export function useUpdateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateAssignmentBody }) =>
      unwrap(api.PATCH("/api/v1/plan-assignments/{id}", { params: { path: { id } }, body })),
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}

export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/plan-assignments/{id}", { params: { path: { id } } })),
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}
