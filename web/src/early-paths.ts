import { rememberedPeriodKinds } from "./features/home/period-hint";
import { currentPeriodLabel, lastPeriods, type PlanPeriod } from "./lib/periods";

// What a page's loader asks for first (router.tsx: prefetchHome, prefetchDealPage), as the API client
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
    ...earlier.map(statement),
  ];
}

function dealPaths(dealId: string): string[] {
  return [
    `/api/v1/deals/${id(dealId)}`,
    "/api/v1/users?per_page=100",
    `/api/v1/disputes?deal_id=${id(dealId)}&per_page=100`,
    `/api/v1/deals/${id(dealId)}/history?page=1&per_page=10`,
  ];
}

/** The GET paths the page at `pathname` asks for first, for the signed-in person `viewerId`. */
export function earlyPaths(pathname: string, viewerId: string): string[] {
  if (pathname === "/") return homePaths(viewerId);
  const person = /^\/people\/([^/]+)\/?$/.exec(pathname);
  if (person) return homePaths(person[1]!);
  const deal = /^\/deals\/([^/]+)\/?$/.exec(pathname);
  if (deal) return dealPaths(deal[1]!);
  return [];
}

// Who was signed in when this browser last loaded the console: boot.ts asks for their home's data
// with the session instead of after it. Wrong (someone else signed in since), those answers are not
// the ones the page asks for and are dropped; it is forgotten on sign-out and on a 401.
const VIEWER_KEY = "cts:last-viewer";

export function rememberedViewer(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(VIEWER_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberViewer(userId: string | undefined): void {
  try {
    if (userId === undefined) globalThis.localStorage?.removeItem(VIEWER_KEY);
    else if (globalThis.localStorage?.getItem(VIEWER_KEY) !== userId)
      globalThis.localStorage?.setItem(VIEWER_KEY, userId);
  } catch {
    // Storage refused: the home's data waits for the session, as on a first visit.
  }
}
