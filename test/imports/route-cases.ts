import { unique, uniqueEmail } from "../factories.js";
import type { RouteCase } from "../route-case.js";

const CSV = { "content-type": "text/csv" };

/** The security table's rows for API.md §19: a dry run of a deals file, a real import of one new user. */
export const IMPORT_ROUTES: RouteCase[] = [
  {
    method: "POST",
    path: "/api/v1/imports/deals",
    scope: "write",
    ok: 200,
    headers: CSV,
    query: "dry_run=true",
    body: () =>
      `external_id,opportunity_name,arr_amount,close_date,owner_id\r\n${unique("crm")},Acme,100,2026-07-15,nobody@example.com\r\n`,
    invalid: { query: "dry_run=yes", param: "dry_run" },
  },
  {
    method: "POST",
    path: "/api/v1/imports/users",
    scope: "write",
    ok: 200,
    headers: CSV,
    body: () => `name,email\r\nNew Rep,${uniqueEmail("import")}\r\n`,
    invalid: { query: "map=email", param: "map" },
  },
];
