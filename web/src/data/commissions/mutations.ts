import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

export type PreviewBody = BodyOf<"previewCommission">;

/** POST /commissions/preview: persists nothing (refresh.ts: nothing but the audit log is stale). */
export function usePreviewCommission() {
  return useWrite("POST /api/v1/commissions/preview", (body: PreviewBody) =>
    unwrap(api.POST("/api/v1/commissions/preview", { body })),
  );
}

/**
 * POST /commissions/preview for a form that prices as it is typed: each call carries the signal that
 * cancels it once a newer body is asked for, so a slow answer never replaces a newer one.
 */
export function usePreviewAsTyped() {
  return useWrite("POST /api/v1/commissions/preview", ({ body, signal }: { body: PreviewBody; signal: AbortSignal }) =>
    unwrap(api.POST("/api/v1/commissions/preview", { body, signal })),
  );
}

export type AdjustmentBody = BodyOf<"createAdjustment">;

/** POST /commissions/adjustments: a signed line on a deal for its owner or a credited person (admin, finance). */
export function useCreateAdjustment() {
  return useWrite("POST /api/v1/commissions/adjustments", (body: AdjustmentBody) =>
    unwrap(api.POST("/api/v1/commissions/adjustments", { body })),
  );
}
