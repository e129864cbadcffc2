import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of commission-cost accounting (API.md §17). */
export const ACCOUNTING_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/settings/accounting",
    scope: "read",
    ok: 200,
    invalid: { query: "expand=accounts", param: "expand" },
  },
  {
    method: "PUT",
    path: "/api/v1/settings/accounting",
    scope: "admin",
    ok: 200,
    body: () => ({ expected_customer_life_months: 60 }),
    invalid: { body: { expected_customer_life_months: 241 }, param: "expected_customer_life_months" },
  },
  {
    method: "GET",
    path: "/api/v1/accounting/schedule",
    scope: "read",
    ok: 200,
    query: "month=2026-01",
    invalid: { query: "month=2026-13", param: "month" },
  },
  {
    method: "GET",
    path: "/api/v1/accounting/roll-forward",
    scope: "read",
    ok: 200,
    query: "from=2026-01&to=2026-12",
    invalid: { query: "from=2026-01&to=2036-01", param: "to" },
  },
  {
    method: "GET",
    path: "/api/v1/accounting/journal",
    scope: "read",
    ok: 200,
    query: "month=2026-01",
    invalid: { query: "month=2026-01&currency=usd", param: "currency" },
  },
];
