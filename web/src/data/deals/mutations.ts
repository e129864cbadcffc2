import { api, unwrap } from "../../api/client";
import { runBulk } from "../../lib/bulk";
import { useWrite } from "../write";
import type { Deal } from "./queries";

interface Bulk {
  deals: readonly Deal[];
  /** Hears how many requests have finished while the action runs. */
  progress?: (finished: number) => void;
}

/** Approves deals one request each, with its own Idempotency-Key (lib/bulk.ts); failures listed by deal. */
export function useApproveDeals() {
  return useWrite("POST /api/v1/deals/{id}/approve", ({ deals, progress }: Bulk) =>
    runBulk(
      deals,
      (deal, key) =>
        unwrap(
          api.POST("/api/v1/deals/{id}/approve", {
            params: { path: { id: deal.id }, header: { "Idempotency-Key": key } },
          }),
        ),
      progress,
    ),
  );
}

/** Marks deals paid, one request each with its own Idempotency-Key (lib/bulk.ts). */
export function useMarkPaid() {
  return useWrite("POST /api/v1/deals/{id}/mark-paid", ({ deals, progress }: Bulk) =>
    runBulk(
      deals,
      (deal, key) =>
        unwrap(
          api.POST("/api/v1/deals/{id}/mark-paid", {
            params: { path: { id: deal.id }, header: { "Idempotency-Key": key } },
          }),
        ),
      progress,
    ),
  );
}

/** Rejects one deal with the reason the API requires; one Idempotency-Key per attempt the person makes. */
export function useRejectDeal() {
  return useWrite("POST /api/v1/deals/{id}/reject", ({ deal, reason }: { deal: Deal; reason: string }) =>
    unwrap(
      api.POST("/api/v1/deals/{id}/reject", {
        params: { path: { id: deal.id }, header: { "Idempotency-Key": crypto.randomUUID() } },
        body: { reason },
      }),
    ),
  );
}
