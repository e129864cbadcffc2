import type { QueryOf, Schemas } from "../../api/types";
import { upload } from "../../api/upload";
import { useWrite } from "../write";

// CSV imports (API.md §19): the file as the body (text/csv), the column mapping as `?map=`, uploaded
// with progress. One Idempotency-Key per attempt the person makes: a retry after a lost answer never
// imports twice.

export type ImportTarget = "deals" | "users";
export type ImportAnswer = Schemas["ImportResult"];
export type ImportAction = Schemas["ImportRow"]["action"];
/** A row's problem as a dry run lists it, or as a refused import's 422 details name it (none: the count of the rest). */
export type ImportProblem = Omit<Schemas["ImportRowError"], "row"> & { row: number | null };
type ImportQuery = QueryOf<"importDeals"> & QueryOf<"importUsers">;

export interface ImportRequest {
  resource: ImportTarget;
  file: Blob;
  /** `csv_col:field,…` (`csv_col:-` skips), or none when every column is named as its field. */
  map?: string;
  onProgress?: (sent: number, total: number) => void;
  onSent?: () => void;
}

function send(request: ImportRequest, dryRun: boolean): Promise<ImportAnswer> {
  const query: ImportQuery = { dry_run: dryRun ? "true" : undefined, map: request.map };
  return upload<ImportAnswer>({
    path: `/api/v1/imports/${request.resource}`,
    query,
    body: request.file,
    contentType: "text/csv",
    headers: { "Idempotency-Key": crypto.randomUUID() },
    onProgress: request.onProgress,
    onSent: request.onSent,
  });
}

/**
 * The dry run: every row's outcome, nothing written. Deliberately not a mutation hook: it changes
 * nothing, so nothing cached goes stale.
 */
export const dryRunImport = (request: ImportRequest): Promise<ImportAnswer> => send(request, true);

/** The import itself: all rows or none (a 422 names every row's error, nothing written). */
export function useImport() {
  const deals = useWrite("POST /api/v1/imports/deals", (request: ImportRequest) => send(request, false));
  const users = useWrite("POST /api/v1/imports/users", (request: ImportRequest) => send(request, false));
  return (request: ImportRequest): Promise<ImportAnswer> =>
    (request.resource === "deals" ? deals : users).mutateAsync(request);
}
