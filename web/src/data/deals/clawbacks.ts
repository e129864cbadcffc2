import { api, unwrap } from "../../api/client";
import { useWrite } from "../write";

/** What a cancellation or refund would claw back (API.md §14), nothing written. */
export type ClawbackPreviewBody = { type: "cancel" | "refund"; effective_date: string; amount?: number };

/** POST /deals/{id}/clawback-preview: persists nothing (refresh.ts: nothing but the audit log is stale). */
export function useClawbackPreview(dealId: string) {
  return useWrite("POST /api/v1/deals/{id}/clawback-preview", (body: ClawbackPreviewBody) =>
    unwrap(api.POST("/api/v1/deals/{id}/clawback-preview", { params: { path: { id: dealId } }, body })),
  );
}

/** approved|paid → cancelled, writing the clawbacks the preview showed; one Idempotency-Key per attempt. */
export function useCancelDeal(dealId: string) {
  return useWrite("POST /api/v1/deals/{id}/cancel", (body: { reason: string; effective_date: string }) =>
    unwrap(
      api.POST("/api/v1/deals/{id}/cancel", {
        params: { path: { id: dealId }, header: { "Idempotency-Key": crypto.randomUUID() } },
        body,
      }),
    ),
  );
}

/** A partial refund: the deal keeps its status, each credited person's clawback follows the refunded share. */
export function useRefundDeal(dealId: string) {
  return useWrite(
    "POST /api/v1/deals/{id}/refunds",
    (body: { amount: number; effective_date: string; reason: string }) =>
      unwrap(
        api.POST("/api/v1/deals/{id}/refunds", {
          params: { path: { id: dealId }, header: { "Idempotency-Key": crypto.randomUUID() } },
          body,
        }),
      ),
  );
}
