import { ID_PREFIXES, isIdOf } from "./lib/ids";
import { currentPeriodLabel, lastPeriods, type PlanPeriod, today } from "./lib/periods";
import { rememberedPeriodKinds, type Viewer } from "./lib/remembered";

// What a page's loader asks for first (routes.tsx: pages/home/loader.ts, pages/deals/loader.ts), as the API client
// writes the request (path, then query in the queries' order), so boot.ts can ask for it before the
// console's code has run. test/console/early-paths.test.ts holds the two lists equal.

const KINDS: readonly PlanPeriod[] = ["quarter", "month", "year"];
const id = (value: string) => encodeURIComponent(decodeURIComponent(value));

/** A person's own commissions (a rep's home, a manager's below their team, anyone's /people/{id}). */
function personPaths(userId: string): string[] {
  const statement = (period: string) => `/api/v1/users/${id(userId)}/statement?period=${encodeURIComponent(period)}`;
  const earlier = rememberedPeriodKinds(userId).flatMap((kind) =>
    lastPeriods(currentPeriodLabel(kind), 4).slice(0, -1),
  );
  return [
    ...KINDS.map((kind) => statement(currentPeriodLabel(kind))),
    `/api/v1/deals?owner_id=${id(userId)}&sort=-close_date&per_page=5`,
    `/api/v1/users/${id(userId)}/periods?page=1&per_page=100`,
    ...earlier.map(statement),
  ];
}

const ONE = "page=1&per_page=1";
const OPEN_DISPUTES = `/api/v1/disputes?${ONE}&status=open`;
const PENDING_DEALS = `/api/v1/deals?${ONE}&status=pending`;

/** The home by role (pages/home/loader.ts): finance's and an admin's show no commissions of their own. */
function homePaths(viewer: Viewer): string[] {
  switch (viewer.role) {
    case "finance":
      return ["/api/v1/payouts?page=1&per_page=100"];
    case "admin":
      return [
        `/api/v1/comp-plans?${ONE}`,
        `/api/v1/users?${ONE}&role=rep`,
        `/api/v1/plan-assignments?${ONE}`,
        `/api/v1/deals?${ONE}`,
        `/api/v1/api-keys?${ONE}`,
        PENDING_DEALS,
        OPEN_DISPUTES,
        `/api/v1/payouts?${ONE}`,
      ];
    case "manager":
      return [
        `/api/v1/users/statements?on=${today()}&page=1&per_page=100`,
        OPEN_DISPUTES,
        PENDING_DEALS,
        ...personPaths(viewer.id),
      ];
    default:
      return personPaths(viewer.id);
  }
}

function dealPaths(dealId: string): string[] {
  return [
    `/api/v1/deals/${id(dealId)}`,
    "/api/v1/users?page=1&per_page=100",
    `/api/v1/disputes?deal_id=${id(dealId)}&per_page=100`,
    `/api/v1/deals/${id(dealId)}/history?page=1&per_page=10`,
  ];
}

/** The GET paths the page at `pathname` asks for first, for the signed-in `viewer`. */
export function earlyPaths(pathname: string, viewer: Viewer): string[] {
  if (pathname === "/") return homePaths(viewer);
  // An id that is not one is the page's not-found state (routes.tsx): nothing to ask for.
  const person = /^\/people\/([^/]+)\/?$/.exec(pathname);
  if (person && isIdOf(ID_PREFIXES.person, person[1]!)) return personPaths(person[1]!);
  const deal = /^\/deals\/([^/]+)\/?$/.exec(pathname);
  if (deal && isIdOf(ID_PREFIXES.deal, deal[1]!)) return dealPaths(deal[1]!);
  return [];
}
