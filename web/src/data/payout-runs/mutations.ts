import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

// One Idempotency-Key per attempt the person makes: a retry after a lost answer never makes a second run.

/** A draft run through a date (API.md §13): the API selects and nets what it pays. */
export function useCreatePayoutRun() {
  return useWrite("POST /api/v1/payout-runs", (body: BodyOf<"createPayoutRun">) =>
    unwrap(
      api.POST("/api/v1/payout-runs", {
        params: { header: { "Idempotency-Key": crypto.randomUUID() } },
        body,
      }),
    ),
  );
}

/** Pays a draft run: its lines become paid, and every deal whose lines are all paid. */
export function useFinalizePayoutRun() {
  return useWrite("POST /api/v1/payout-runs/{id}/finalize", (id: string) =>
    unwrap(
      api.POST("/api/v1/payout-runs/{id}/finalize", {
        params: { path: { id }, header: { "Idempotency-Key": crypto.randomUUID() } },
      }),
    ),
  );
}

/** Cancels a draft run: its lines go back to what the next run may take. */
export function useCancelPayoutRun() {
  return useWrite("POST /api/v1/payout-runs/{id}/cancel", (id: string) =>
    unwrap(
      api.POST("/api/v1/payout-runs/{id}/cancel", {
        params: { path: { id }, header: { "Idempotency-Key": crypto.randomUUID() } },
      }),
    ),
  );
}
