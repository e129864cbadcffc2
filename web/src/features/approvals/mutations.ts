import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { runBulk } from "../../lib/bulk";
import { dealKeys } from "../deals";
import type { Deal } from "./queries";

/** What an approval or rejection changes: every deal read, and the statements and homes that sum lines. */
export function invalidateAfterDecision(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dealKeys.all }),
    queryClient.invalidateQueries({ queryKey: ["home"] }),
    queryClient.invalidateQueries({ queryKey: ["statement"] }),
  ]);
}

const approve = (deal: Deal, idempotencyKey: string) =>
  unwrap(
    api.POST("/api/v1/deals/{id}/approve", {
      params: { path: { id: deal.id }, header: { "Idempotency-Key": idempotencyKey } },
    }),
  );

/** Approves deals one request each (lib/bulk.ts); `progress` hears how many have finished. */
export function useApproveMany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deals, progress }: { deals: Deal[]; progress?: (finished: number) => void }) =>
      runBulk(deals, approve, progress),
    onSettled: () => invalidateAfterDecision(queryClient),
  });
}

/** Rejects one deal with the reason the API requires; one Idempotency-Key per attempt the person makes. */
export function useRejectDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deal, reason }: { deal: Deal; reason: string }) =>
      unwrap(
        api.POST("/api/v1/deals/{id}/reject", {
          params: { path: { id: deal.id }, header: { "Idempotency-Key": crypto.randomUUID() } },
          body: { reason },
        }),
      ),
    onSuccess: () => invalidateAfterDecision(queryClient),
  });
}
