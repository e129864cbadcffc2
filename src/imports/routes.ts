import { declareRoutes } from "../declare-routes.js";
import type { App } from "../http/types.js";
import { importDeals } from "./import-deals.js";
import { importUsers } from "./import-users.js";
import { CsvFile, ImportQuery, ImportResult } from "./schema.js";

/** What both imports share, said once in the document (the Imports tag's description). */
export const IMPORTS_TAG = {
  name: "Imports",
  description:
    "CSV files of deals or users (API.md §19). The body is the file (`Content-Type: text/csv`, else 415; UTF-8, " +
    "else 400; a BOM is ignored; RFC 4180, CRLF or LF), a header row first, cells trimmed; at most 32 MiB and " +
    "50,000 rows, else 413 (split the file). Rows are numbered as a spreadsheet shows them (the header is row 1). " +
    "Columns are field names; `?map=csv_col:field,…` renames them (`csv_col:-` skips one); an unknown or repeated " +
    "column is 422. A column the file lacks keeps the stored value (new: the default); an empty cell is null or the " +
    "default. Numbers plain (`1234.5`), dates `YYYY-MM-DD`, booleans `true`/`false`. `?dry_run=true` answers each " +
    "row's action and problems, writing nothing. A real import is all or nothing in one transaction: 200 with the " +
    "counts, or 422 whose details name each problem (`rows[4].arr_amount`, with `row` and `field`; at most 1,000, " +
    "then one counting the rest). One audit row names the file's SHA-256; an Idempotency-Key's fingerprint is the " +
    "method, path, query and the file's SHA-256.",
};

export function importRoutes(app: App): void {
  const route = declareRoutes(app, [IMPORTS_TAG.name]);

  route.post(
    {
      path: "/imports/deals",
      scope: "write",
      summary: "Import deals from CSV",
      operationId: "importDeals",
      description:
        "Upserts by `external_id` (required, once per file) as PUT /deals/by-external-id does, with POST /deals/bulk's " +
        "rules, events and audit, 1,000 at a time. Also `opportunity_name, arr_amount, currency, deal_type, " +
        "close_date, owner_id, contract_start, contract_end`, and `split_user_ids`/`split_percents`: two `;` lists of " +
        "equal length (both empty: the owner at 100). A user cell is a `usr_…` id or an email. Changing a locked " +
        "deal is a row error, but for its contract dates. See the Imports tag for the file's rules.",
      consumes: ["text/csv"],
      query: ImportQuery,
      body: CsvFile,
      response: ImportResult,
    },
    ({ ctx, query, body }) => importDeals(ctx, body, query),
  );

  route.post(
    {
      path: "/imports/users",
      scope: "write",
      summary: "Import users from CSV",
      operationId: "importUsers",
      description:
        "A row updates the user with its `external_id`, else its `email`, or creates one. Columns `external_id, name, " +
        "email, role, manager_id` (a `usr_…` id or an email, also of a row in the file), `manager_effective_from, " +
        "active, payroll_id`. Rows needing admin scope (API.md §20 (a)) are row errors under a write key. " +
        "`manager_effective_from` is checked as a date but not yet stored: reporting-line history does not exist " +
        "yet, so the manager changes as PATCH /users/{id} changes it, from the import on. recalculation_job_id is " +
        "null. See the Imports tag for the file's rules.",
      consumes: ["text/csv"],
      query: ImportQuery,
      body: CsvFile,
      response: ImportResult,
    },
    ({ ctx, query, body }) => importUsers(ctx, body, query),
  );
}
