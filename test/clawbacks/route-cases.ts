import { createUser } from "../factories.js";
import { Api, approveAsOwner, createDeal } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of cancellations, refunds and their preview (API.md §14). */

const approvedDeal = async (t: TestApp) => {
  const deal = await createDeal(new Api(t), (await createUser(t)).id, { close_date: "2026-07-15" });
  await approveAsOwner(t, deal.id);
  return deal.id;
};

export const CLAWBACK_ROUTES: RouteCase[] = [
  {
    method: "POST",
    path: "/api/v1/deals/{id}/cancel",
    scope: "admin",
    ok: 200,
    record: approvedDeal,
    idPrefix: "deal",
    body: () => ({ reason: "Churned", effective_date: "2026-08-01" }),
    invalid: { body: { reason: "", effective_date: "2026-08-01" }, param: "reason" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/refunds",
    scope: "admin",
    ok: 201,
    record: approvedDeal,
    idPrefix: "deal",
    body: () => ({ amount: 100, effective_date: "2026-08-01" }),
    invalid: { body: { amount: 0, effective_date: "2026-08-01" }, param: "amount" },
  },
  {
    method: "GET",
    path: "/api/v1/deals/{id}/refunds",
    scope: "read",
    ok: 200,
    record: approvedDeal,
    idPrefix: "deal",
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "GET",
    path: "/api/v1/refunds/{id}",
    scope: "read",
    ok: 200,
    record: async (t) => {
      const res = await new Api(t).post(`/deals/${await approvedDeal(t)}/refunds`, {
        amount: 100,
        effective_date: "2026-08-01",
      });
      return (res.json() as { id: string }).id;
    },
    idPrefix: "rfd",
    invalid: { id: "r".repeat(256), param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/deals/{id}/clawback-preview",
    scope: "read",
    ok: 200,
    record: approvedDeal,
    idPrefix: "deal",
    body: () => ({ type: "refund", effective_date: "2026-08-01", amount: 100 }),
    invalid: { body: { type: "refund", effective_date: "2026-08-01" }, param: "amount" },
  },
];
