import type { components } from "./schema";

export type ErrorBody = components["schemas"]["Error"];

/** An API error as the contract states it (API.md §2): code, message, details, and the request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details?: ErrorBody["error"]["details"],
    /** A 429's or 503's Retry-After in seconds, when the server sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The ApiError of a failed answer: the contract's error body (when it is one) and the Request-Id. */
export async function apiErrorOf(response: Response, error?: unknown): Promise<ApiError> {
  const body = (error ?? (await response.json().catch(() => ({})))) as Partial<ErrorBody>;
  const retryAfter = Number(response.headers.get("Retry-After") ?? Number.NaN);
  return new ApiError(
    response.status,
    body.error?.code ?? "unknown",
    body.error?.message ?? `${response.status} ${response.statusText}`,
    response.headers.get("Request-Id"),
    body.error?.details,
    Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
  );
}

/**
 * The server did not answer at all (the network is down, the server stopped): fetch rejected, or a
 * page's code could not be loaded. Said in words a person can act on, never the browser's "Failed to fetch".
 */
export class OfflineError extends Error {
  constructor(readonly cause?: unknown) {
    super("The server cannot be reached. Check your connection; this page tries again by itself.");
    this.name = "OfflineError";
  }
}

/** An error that means "no answer from the server" (OfflineError, or a code chunk that failed to load). */
export function isOffline(error: unknown): boolean {
  if (error instanceof OfflineError) return true;
  return (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message)
  );
}
