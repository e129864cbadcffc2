import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  useRouteContext,
} from "@tanstack/react-router";
import type { ReactNode } from "react";
import { prefetchApprovals } from "./features/approvals/queries";
import { prefetchDealPage } from "./features/deals/queries";
import { prefetchHome } from "./features/home/queries";
import { NAV, type Role } from "./nav";
import { sessionQuery } from "./session";
import { AppLayout } from "./ui/AppLayout";
import { ErrorState, NotAllowedState, NotFoundState, PageLoader } from "./ui/states";

export interface RouterContext {
  queryClient: QueryClient;
}

/** A search parameter that is a string, or absent. */
const optionalString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: () => <NotFoundState />,
});

// Pages anyone may open. Every path here and below is also in src/app/console.ts CONSOLE_PAGES.
const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: (search: Record<string, unknown>) => ({
    return_to: optionalString(search.return_to),
    reason: optionalString(search.reason),
  }),
  component: lazyRouteComponent(() => import("./features/auth/SignInPage"), "SignInPage"),
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invite",
  component: lazyRouteComponent(() => import("./features/auth/InvitePage"), "InvitePage"),
});

/** Every page below needs a session: without one, sign in first and come back here. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  beforeLoad: async ({ context: { queryClient }, location, preload }) => {
    const hadSession = Boolean(queryClient.getQueryData(sessionQuery.queryKey));
    // A session ends without the page knowing (revoked, timed out, signed out elsewhere): every page
    // opened asks again, so the person signs in again here, not on a page that cannot load. A preload
    // on hover reuses what is known.
    const session = preload
      ? await queryClient.ensureQueryData(sessionQuery)
      : await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
    if (!session) {
      const reason = hadSession ? "expired" : undefined;
      throw redirect({ to: "/sign-in", search: { return_to: location.href, reason } });
    }
    return { session };
  },
  component: AppLayout,
});

const page = <Path extends string>(path: Path, load: () => Promise<Record<string, unknown>>, name: string) =>
  createRoute({ getParentRoute: () => signedInRoute, path, component: lazyRouteComponent(load as never, name) });

/**
 * A page for some roles only (nav.ts): anyone else gets the "not allowed" page, and the page's code and
 * data never load. This is for the person's sake; what protects the data is the API's own refusal.
 */
const rolePage = <Path extends string>(
  path: Path,
  roles: readonly Role[],
  load: () => Promise<Record<string, unknown>>,
  name: string,
  prefetch?: (queryClient: QueryClient) => void,
) => {
  const Page = lazyRouteComponent(load as never, name) as () => ReactNode;
  return createRoute({
    getParentRoute: () => signedInRoute,
    path,
    beforeLoad: ({ context }) => ({ allowed: roles.includes(context.session.user.role) }),
    // The page's first requests start while its code chunk loads, for those allowed to open it.
    loader: ({ context }) => (context.allowed ? prefetch?.(context.queryClient) : undefined),
    component: function RolePage() {
      const { allowed } = useRouteContext({ strict: false }) as { allowed?: boolean };
      return allowed ? <Page /> : <NotAllowedState roles={roles} />;
    },
  });
};

/** The roles of a page that the navigation lists, so the two cannot disagree. */
const rolesOf = (label: string): readonly Role[] => {
  const entry = NAV.find((e) => e.label === label);
  if (!entry) throw new Error(`nav.ts has no entry "${label}"`);
  return entry.roles;
};

// The loaders below start a page's first requests while its code chunk loads, not after it ran.
const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/",
  loader: ({ context }) => prefetchHome(context.queryClient, context.session.user.id),
  component: lazyRouteComponent(() => import("./features/home/HomePage"), "HomePage"),
});
export const personRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/people/$userId",
  loader: ({ context, params }) => prefetchHome(context.queryClient, params.userId),
  component: lazyRouteComponent(() => import("./features/home/PersonPage"), "PersonPage"),
});
export const dealRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/deals/$dealId",
  loader: ({ context, params }) => prefetchDealPage(context.queryClient, params.dealId),
  component: lazyRouteComponent(() => import("./features/deals/DealPage"), "DealPage"),
});
export const statementRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/statements/$period",
  validateSearch: (search: Record<string, unknown>) => ({ user: optionalString(search.user) }),
  component: lazyRouteComponent(() => import("./features/statements/StatementPage"), "StatementPage"),
});
const whatIfRoute = page("/what-if", () => import("./features/what-if/WhatIfPage"), "WhatIfPage");
const disputesRoute = page("/disputes", () => import("./features/disputes/DisputesPage"), "DisputesPage");
const teamRoute = rolePage("/team", rolesOf("Team"), () => import("./features/team/TeamPage"), "TeamPage");
const plansRoute = rolePage("/plans", rolesOf("Plans"), () => import("./features/plans/PlansPage"), "PlansPage");
export const planRoute = rolePage(
  "/plans/$planId",
  rolesOf("Plans"),
  () => import("./features/plans/PlanPage"),
  "PlanPage",
);
const peopleRoute = rolePage("/people", rolesOf("People"), () => import("./features/people/PeoplePage"), "PeoplePage");
const spiffsRoute = rolePage("/spiffs", rolesOf("SPIFFs"), () => import("./features/spiffs/SpiffsPage"), "SpiffsPage");
const auditRoute = rolePage("/audit", rolesOf("Audit log"), () => import("./features/logs/AuditPage"), "AuditPage");
const requestLogRoute = rolePage(
  "/request-log",
  rolesOf("Request log"),
  () => import("./features/logs/RequestLogPage"),
  "RequestLogPage",
);
const jobsRoute = rolePage("/jobs", rolesOf("Jobs"), () => import("./features/jobs/JobsPage"), "JobsPage");
const disputeQueueRoute = rolePage(
  "/dispute-queue",
  rolesOf("Dispute queue"),
  () => import("./features/dispute-queue/DisputeQueuePage"),
  "DisputeQueuePage",
);
const payoutsRoute = rolePage(
  "/payouts",
  rolesOf("Payouts"),
  () => import("./features/payouts/PayoutsPage"),
  "PayoutsPage",
);
const apiKeysRoute = rolePage(
  "/api-keys",
  rolesOf("API keys"),
  () => import("./features/api-keys/ApiKeysPage"),
  "ApiKeysPage",
);
const webhooksRoute = rolePage(
  "/webhooks",
  rolesOf("Webhooks"),
  () => import("./features/webhooks/WebhooksPage"),
  "WebhooksPage",
);
const webhookRoute = rolePage(
  "/webhooks/$subscriptionId",
  rolesOf("Webhooks"),
  () => import("./features/webhooks/WebhookPage"),
  "WebhookPage",
);
const approvalsRoute = rolePage(
  "/approvals",
  rolesOf("Approvals"),
  () => import("./features/approvals/ApprovalsPage"),
  "ApprovalsPage",
  prefetchApprovals,
);
const accountRoute = page("/account", () => import("./features/auth/AccountPage"), "AccountPage");

const routeTree = rootRoute.addChildren([
  signInRoute,
  inviteRoute,
  signedInRoute.addChildren([
    homeRoute,
    personRoute,
    dealRoute,
    statementRoute,
    whatIfRoute,
    disputesRoute,
    teamRoute,
    plansRoute,
    planRoute,
    peopleRoute,
    spiffsRoute,
    auditRoute,
    requestLogRoute,
    jobsRoute,
    disputeQueueRoute,
    payoutsRoute,
    apiKeysRoute,
    webhooksRoute,
    webhookRoute,
    approvalsRoute,
    accountRoute,
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: ({ error, reset }) => <ErrorState error={error} retry={reset} />,
    defaultNotFoundComponent: () => <NotFoundState />,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
