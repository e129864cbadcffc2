import { ID_PREFIXES, isIdOf } from "./lib/ids";
import { currentPeriodLabel, lastPeriods, type PlanPeriod } from "./lib/periods";
import { rememberedPeriodKinds } from "./lib/remembered";

// What a page's loader asks for first (routes.tsx: pages/home/loader.ts, pages/deals/loader.ts), as the API client
// writes the request (path, then query in the queries' order), so boot.ts can ask for it before the
// console's code has run. test/console/early-paths.test.ts holds the two lists equal.

const KINDS: readonly PlanPeriod[] = ["quarter", "month", "year"];
const id = (value: string) => encodeURIComponent(decodeURIComponent(value));

function homePaths(userId: string): string[] {
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

function dealPaths(dealId: string): string[] {
  return [
    `/api/v1/deals/${id(dealId)}`,
    "/api/v1/users?page=1&per_page=100",
    `/api/v1/disputes?deal_id=${id(dealId)}&per_page=100`,
    `/api/v1/deals/${id(dealId)}/history?page=1&per_page=10`,
  ];
}

/** The GET paths the page at `pathname` asks for first, for the signed-in person `viewerId`. */
export function earlyPaths(pathname: string, viewerId: string): string[] {
  if (pathname === "/") return homePaths(viewerId);
  // An id that is not one is the page's not-found state (routes.tsx): nothing to ask for.
  const person = /^\/people\/([^/]+)\/?$/.exec(pathname);
  if (person && isIdOf(ID_PREFIXES.person, person[1]!)) return homePaths(person[1]!);
  const deal = /^\/deals\/([^/]+)\/?$/.exec(pathname);
  if (deal && isIdOf(ID_PREFIXES.deal, deal[1]!)) return dealPaths(deal[1]!);
  return [];
}
