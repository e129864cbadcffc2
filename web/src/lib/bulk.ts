import { ApiError } from "../api/errors";

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

/** The longest Retry-After a bulk action waits out (the session limit's window is a minute, API.md §3). */
const MAX_WAIT_SECONDS = 60;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The item's request, and once more after its Retry-After when the first answer was 429 (a large
 * selection can outrun the per-person limit): a 429 did nothing, so the same Idempotency-Key is sent again.
 */
async function actRetryingOnce429<T>(
  item: T,
  key: string,
  act: (item: T, idempotencyKey: string) => Promise<unknown>,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  try {
    await act(item, key);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    await pause(Math.min(error.retryAfterSeconds ?? 1, MAX_WAIT_SECONDS) * 1000);
    await act(item, key);
  }
}

/**
 * One action over many records, as the workbench's bulk buttons do it: each record its own request with
 * its own `Idempotency-Key` (so a retried click never acts twice), a few at a time, every failure kept
 * with the server's message and request id. Nothing is all-or-nothing here: each record's request is.
 * A 429 is retried once after its Retry-After; a second 429 is kept as that record's failure.
 * `act` gets the item and its idempotency key; `progress` hears how many have finished; `pause` waits
 * (tests pass their own).
 */
export async function runBulk<T>(
  items: readonly T[],
  act: (item: T, idempotencyKey: string) => Promise<unknown>,
  progress?: (finished: number) => void,
  pause: (ms: number) => Promise<void> = sleep,
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
        await actRetryingOnce429(item, keys[index]!, act, pause);
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
