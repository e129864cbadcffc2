import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { dealKeys } from "../deals/queries";
import { disputeKeys } from "../disputes/queries";

export type ResolveBody = operations["resolveDispute"]["requestBody"]["content"]["application/json"];

/**
 * Resolves a dispute. What it changes is read again before it settles: every dispute list, and the deal
 * (status back to approved, total and lines moved by the adjustment, its history).
 */
export function useResolveDispute(disputeId: string, dealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ResolveBody) =>
      unwrap(api.POST("/api/v1/disputes/{id}/resolve", { params: { path: { id: disputeId } }, body })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: disputeKeys.all }),
        queryClient.invalidateQueries({ queryKey: dealKeys.detail(dealId) }),
        queryClient.invalidateQueries({ queryKey: ["payouts"] }),
      ]),
  });
}
