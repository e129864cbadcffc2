import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { WriteEndpoint } from "../api/types";
import { keys, type Resource } from "./keys";

/** Sign-in, sign-out and an accepted invitation: another person's view, so nothing cached is kept. */
const EVERYTHING = "everything";

// What lines move when commissions are recalculated: every deal read, every statement (home, statement
// and team pages: GET /users/statements is keyed under statements too) and the payout groups.
const LINES: Resource[] = ["deals", "statements", "payouts"];

/**
 * What each write of the console makes stale, by resource. The audit log is stale after every write
 * (refresh() adds it). test/console/refresh.test.ts holds each row to the pages it changes.
 */
export const REFRESH = {
  "POST /api/v1/auth/login": EVERYTHING,
  "POST /api/v1/auth/logout": EVERYTHING,
  "POST /api/v1/auth/invitations/accept": EVERYTHING,
  "POST /api/v1/auth/password": [],
  "POST /api/v1/auth/password-reset": [],
  "POST /api/v1/auth/password-reset/confirm": EVERYTHING,
  // The answer is the saved settings, cached by the write itself (data/auth/mutations.ts).
  "POST /api/v1/me/notifications": [],
  // A deal written or deleted is priced again with the later deals of its periods.
  "POST /api/v1/deals": LINES,
  "PATCH /api/v1/deals/{id}": LINES,
  "DELETE /api/v1/deals/{id}": LINES,
  "POST /api/v1/deals/{id}/approve": LINES,
  "POST /api/v1/deals/{id}/reject": LINES,
  "POST /api/v1/deals/{id}/mark-paid": LINES,
  // A cancellation or refund writes clawback lines (and a refund is listed under its deal).
  "POST /api/v1/deals/{id}/cancel": LINES,
  "POST /api/v1/deals/{id}/refunds": LINES,
  "POST /api/v1/deals/{id}/clawback-preview": [],
  // A run takes approved lines (a statement line names its run); finalizing pays them and their deals.
  // A run also settles draw periods (its draw lines, a draw's periods, entries and balance, API.md §18).
  "POST /api/v1/payout-runs": ["payout-runs", "payouts", "statements", "draws"],
  "POST /api/v1/payout-runs/{id}/finalize": [...LINES, "payout-runs", "draws"],
  "POST /api/v1/payout-runs/{id}/cancel": ["payout-runs", "payouts", "statements", "draws"],
  "POST /api/v1/deals/{id}/disputes": ["deals", "disputes"],
  "POST /api/v1/disputes/{id}/resolve": [...LINES, "disputes"],
  "POST /api/v1/commissions/preview": [],
  // An adjustment is an approved line: it moves the deal's total, statements and what is owed.
  "POST /api/v1/commissions/adjustments": LINES,
  // A new plan has no assignment yet: no line moves.
  "POST /api/v1/comp-plans": ["comp-plans"],
  // A new version, and an assignment, ask people to acknowledge the plan.
  "PATCH /api/v1/comp-plans/{id}": [...LINES, "comp-plans", "plan-acknowledgements"],
  "POST /api/v1/comp-plans/{id}/impact": [],
  "POST /api/v1/comp-plans/{id}/assignments": [...LINES, "comp-plans", "plan-acknowledgements"],
  "PATCH /api/v1/plan-assignments/{id}": [...LINES, "comp-plans"],
  "DELETE /api/v1/plan-assignments/{id}": [...LINES, "comp-plans"],
  "POST /api/v1/spiffs": [...LINES, "spiffs"],
  "PATCH /api/v1/spiffs/{id}": [...LINES, "spiffs"],
  // A new person, a changed manager or a deactivation changes who the team pages list (GET /users/statements);
  // a changed manager also moves pending override lines (API.md §16) between managers.
  "POST /api/v1/users": ["users", "statements"],
  "PATCH /api/v1/users/{id}": [...LINES, "users"],
  "POST /api/v1/users/{id}/reporting-lines/impact": [],
  "POST /api/v1/users/{id}/invitations": [],
  // An import of deals creates and changes pending deals and their lines (recalculated in steps); one of
  // people changes who is listed, and where (GET /users/statements), and its managers' override lines.
  "POST /api/v1/imports/deals": LINES,
  "POST /api/v1/imports/users": [...LINES, "users"],
  "POST /api/v1/users/{id}/sessions/revoke": [],
  "POST /api/v1/api-keys": ["api-keys"],
  "POST /api/v1/api-keys/{id}/rotate": ["api-keys"],
  "POST /api/v1/api-keys/{id}/revoke": ["api-keys"],
  "POST /api/v1/webhook-subscriptions": ["webhooks"],
  "PATCH /api/v1/webhook-subscriptions/{id}": ["webhooks"],
  "DELETE /api/v1/webhook-subscriptions/{id}": ["webhooks"],
  "POST /api/v1/webhook-subscriptions/{id}/rotate-secret": ["webhooks"],
  "POST /api/v1/webhook-subscriptions/{id}/test": ["webhooks"],
  "POST /api/v1/webhook-deliveries/{id}/retry": ["webhooks"],
  // A rate set prices the pending deals converted on its days again (API.md §15).
  "PUT /api/v1/exchange-rates/{date}": [...LINES, "exchange-rates"],
  "DELETE /api/v1/exchange-rates/{date}": [...LINES, "exchange-rates"],
  // A draw writes no line; a person's payout balances (keyed under statements) list open draws.
  "POST /api/v1/draws": ["draws", "statements"],
  "POST /api/v1/draws/{id}/end": ["draws", "statements"],
  "POST /api/v1/draws/{id}/forgive": ["draws", "statements"],
  "POST /api/v1/plan-acknowledgements/{id}/acknowledge": ["plan-acknowledgements"],
} as const satisfies Partial<Record<WriteEndpoint, readonly Resource[] | typeof EVERYTHING>>;

export type Write = keyof typeof REFRESH;

const startsWith = (key: QueryKey, prefix: QueryKey) =>
  prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));

/**
 * Marks stale what `write` changed: on-screen queries are read again at once, the rest when next shown.
 * `gone` is the key of a record the write deleted: marked stale, never asked for again.
 */
export async function refresh(client: QueryClient, write: Write, gone?: QueryKey): Promise<void> {
  const row: readonly Resource[] | typeof EVERYTHING = REFRESH[write];
  if (row === EVERYTHING) {
    client.clear();
    return;
  }
  if (gone) await client.invalidateQueries({ queryKey: gone, refetchType: "none" });
  const stale = [...row, keys.auditEvents.all[0]];
  await Promise.all(
    stale.map((root) =>
      client.invalidateQueries({
        queryKey: [root],
        predicate: gone ? (query) => !startsWith(query.queryKey, gone) : undefined,
      }),
    ),
  );
}
