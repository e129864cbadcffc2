import { ApiError } from "../api/client";

export interface BulkFailure<T> {
  item: T;
  message: string;
  code: string;
  requestId: string | null;
}

export interface BulkOutcome<T> {
  done: T[];
  failed: BulkFailure<T>[];
}

/** How many of a bulk action's requests are in flight at once: enough to hide latency, few enough to stay polite. */
const IN_FLIGHT = 4;

/**
 * One action over many records, as the workbench's bulk buttons do it: each record its own request with
 * its own `Idempotency-Key` (so a retried click never acts twice), a few at a time, every failure kept
 * with the server's message and request id. Nothing is all-or-nothing here: each record's request is.
 * `act` gets the item and its idempotency key; `progress` hears how many have finished.
 */
export async function runBulk<T>(
  items: readonly T[],
  act: (item: T, idempotencyKey: string) => Promise<unknown>,
  progress?: (finished: number) => void,
): Promise<BulkOutcome<T>> {
  const done: T[] = [];
  const failed: BulkFailure<T>[] = [];
  const keys = items.map(() => crypto.randomUUID());
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        await act(item, keys[index]!);
        done.push(item);
      } catch (error) {
        const apiError = error instanceof ApiError ? error : undefined;
        failed.push({
          item,
          message: error instanceof Error ? error.message : String(error),
          code: apiError?.code ?? "network",
          requestId: apiError?.requestId ?? null,
        });
      }
      progress?.(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
  return { done, failed };
}
