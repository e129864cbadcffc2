import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { type BulkOutcome, runBulk } from "../../lib/bulk";
import { dealKeys } from "../deals/queries";
import { type Deal, payoutKeys } from "./queries";

/**
 * Marks deals paid, one `POST /deals/{id}/mark-paid` with its own Idempotency-Key each (lib/bulk.ts),
 * then reads the deals and the payout groups again. `progress` counts finished requests while it runs.
 */
export function useMarkPaid() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ finished: number; of: number } | null>(null);
  const markPaid = async (deals: readonly Deal[]): Promise<BulkOutcome<Deal>> => {
    setProgress({ finished: 0, of: deals.length });
    try {
      return await runBulk(
        deals,
        (deal, key) =>
          unwrap(
            api.POST("/api/v1/deals/{id}/mark-paid", {
              params: { path: { id: deal.id }, header: { "Idempotency-Key": key } },
            }),
          ),
        (finished) => setProgress({ finished, of: deals.length }),
      );
    } finally {
      setProgress(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dealKeys.all }),
        queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
      ]);
    }
  };
  return { markPaid, progress };
}
