import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { disputeKeys } from "../disputes/queries";
import { dealKeys } from "./queries";

export type OpenDisputeBody = operations["openDisputeOnDeal"]["requestBody"]["content"]["application/json"];

/** Opens a dispute; the deal (now disputed), its history and every dispute list are read again before it settles. */
export function useOpenDispute(dealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OpenDisputeBody) =>
      unwrap(api.POST("/api/v1/deals/{id}/disputes", { params: { path: { id: dealId } }, body })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: dealKeys.detail(dealId) }),
        queryClient.invalidateQueries({ queryKey: disputeKeys.all }),
      ]),
  });
}
