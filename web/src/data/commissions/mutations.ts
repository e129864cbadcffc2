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

export type AdjustmentBody = BodyOf<"createAdjustment">;

/** POST /commissions/adjustments: a signed line on a deal for its owner or a credited person (admin, finance). */
export function useCreateAdjustment() {
  return useWrite("POST /api/v1/commissions/adjustments", (body: AdjustmentBody) =>
    unwrap(api.POST("/api/v1/commissions/adjustments", { body })),
  );
}
