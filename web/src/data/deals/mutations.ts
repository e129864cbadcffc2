import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { runBulk } from "../../lib/bulk";
import { keys } from "../keys";
import { useWrite } from "../write";
import type { Deal } from "./queries";

export type CreateDealBody = BodyOf<"createDeal">;
export type UpdateDealBody = BodyOf<"updateDeal">;

/**
 * POST /deals: a pending deal, calculated. The key is the form's for this body: a second click or a
 * retry of the same body replays the first answer instead of creating the deal twice.
 */
export function useCreateDeal() {
  return useWrite("POST /api/v1/deals", ({ body, idempotencyKey }: { body: CreateDealBody; idempotencyKey: string }) =>
    unwrap(api.POST("/api/v1/deals", { params: { header: { "Idempotency-Key": idempotencyKey } }, body })),
  );
}

/**
 * PATCH /deals/{id} with the ETag the edit started from (`If-Match`): a change someone made since (an
 * edit, an approval, a recalculation of its lines) is refused with 412 and nothing is saved.
 */
export function useUpdateDeal(id: string) {
  return useWrite("PATCH /api/v1/deals/{id}", ({ body, etag }: { body: UpdateDealBody; etag: string | null }) =>
    unwrap(
      api.PATCH("/api/v1/deals/{id}", { params: { path: { id }, header: etag ? { "If-Match": etag } : {} }, body }),
    ),
  );
}

/** DELETE /deals/{id}: a pending or rejected deal; the deal's own queries are not asked for again. */
export function useDeleteDeal(id: string) {
  return useWrite(
    "DELETE /api/v1/deals/{id}",
    () => unwrap(api.DELETE("/api/v1/deals/{id}", { params: { path: { id } } })),
    { gone: keys.deals.detail(id) },
  );
}

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
