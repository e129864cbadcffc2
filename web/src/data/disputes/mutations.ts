import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

export type OpenDisputeBody = BodyOf<"openDisputeOnDeal">;
export type ResolveBody = BodyOf<"resolveDispute">;

/** Opens a dispute on a deal (the deal becomes disputed). */
export function useOpenDispute(dealId: string) {
  return useWrite("POST /api/v1/deals/{id}/disputes", (body: OpenDisputeBody) =>
    unwrap(api.POST("/api/v1/deals/{id}/disputes", { params: { path: { id: dealId } }, body })),
  );
}

/** Resolves a dispute: the deal goes back to approved, an adjustment line moves its total. */
export function useResolveDispute(disputeId: string) {
  return useWrite("POST /api/v1/disputes/{id}/resolve", (body: ResolveBody) =>
    unwrap(api.POST("/api/v1/disputes/{id}/resolve", { params: { path: { id: disputeId } }, body })),
  );
}
