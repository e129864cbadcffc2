import { api, unwrap } from "../../api/client";
import type { BodyOf, Schemas } from "../../api/types";
import { useWrite } from "../write";

export type PlanEditBody = Schemas["UpdateCompPlanInput"];
export type CreatePlanBody = BodyOf<"createCompPlan">;
export type PlanImpact = Schemas["PlanImpact"];
export type PlanImpactLine = Schemas["PlanImpactLine"];
export type CreateAssignmentBody = BodyOf<"assignPlanToUser">;
export type UpdateAssignmentBody = BodyOf<"updatePlanAssignment">;
type Job = Schemas["Job"];

/** How many changed lines the impact shows: the largest, as the API orders them. */
const IMPACT_LINES = 10;

/** The impact as answered now, or the job computing it (a large plan: 202, API.md §12). */
export type ImpactAnswer = { impact: PlanImpact; job?: undefined } | { impact?: undefined; job: Job };

/** POST /comp-plans/{id}/impact with the PATCH body the form would send: nothing is written. */
export function usePreviewImpact(planId: string) {
  return useWrite("POST /api/v1/comp-plans/{id}/impact", async (body: PlanEditBody): Promise<ImpactAnswer> => {
    const result = await api.POST("/api/v1/comp-plans/{id}/impact", {
      params: { path: { id: planId }, query: { per_page: IMPACT_LINES } },
      body,
    });
    const data = await unwrap(Promise.resolve(result));
    return result.response.status === 202 ? { job: data as Job } : { impact: data as PlanImpact };
  });
}

/**
 * PATCH /comp-plans/{id} with the ETag the edit started from (`If-Match`): a change someone made since
 * is refused with 412 and nothing is saved.
 */
export function useApplyPlanEdit(planId: string) {
  return useWrite("PATCH /api/v1/comp-plans/{id}", ({ body, etag }: { body: PlanEditBody; etag: string | null }) =>
    unwrap(
      api.PATCH("/api/v1/comp-plans/{id}", {
        params: { path: { id: planId }, header: etag ? { "If-Match": etag } : {} },
        body,
      }),
    ),
  );
}

/** POST /comp-plans: a new plan (the console makes drafts: tried with the preview, then published by a PATCH). */
export function useCreatePlan() {
  return useWrite("POST /api/v1/comp-plans", (body: CreatePlanBody) =>
    unwrap(api.POST("/api/v1/comp-plans", { body })),
  );
}

/** Assigns a plan to a person: from the plan's page or from the person's (the plan picked there). */
export function useCreateAssignment() {
  return useWrite(
    "POST /api/v1/comp-plans/{id}/assignments",
    ({ planId, body }: { planId: string; body: CreateAssignmentBody }) =>
      unwrap(api.POST("/api/v1/comp-plans/{id}/assignments", { params: { path: { id: planId } }, body })),
  );
}

export function useUpdateAssignment() {
  return useWrite("PATCH /api/v1/plan-assignments/{id}", ({ id, body }: { id: string; body: UpdateAssignmentBody }) =>
    unwrap(api.PATCH("/api/v1/plan-assignments/{id}", { params: { path: { id } }, body })),
  );
}

export function useDeleteAssignment() {
  return useWrite("DELETE /api/v1/plan-assignments/{id}", (id: string) =>
    unwrap(api.DELETE("/api/v1/plan-assignments/{id}", { params: { path: { id } } })),
  );
}
