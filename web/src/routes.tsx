import type { QueryClient } from "@tanstack/react-query";
import {
  type AnyValidator,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  useRouteContext,
} from "@tanstack/react-router";
import type { ReactNode } from "react";
import { type Role, sessionQuery } from "./data/auth/queries";
import { currentPeriodLabel } from "./lib/periods";
import { apiKeysSearch } from "./pages/api-keys/schemas";
import { prefetchApprovals } from "./pages/approvals/queue";
import { approvalsSearch } from "./pages/approvals/schemas";
import { signInSearch } from "./pages/auth/schemas";
import { prefetchDealPage } from "./pages/deals/loader";
import { dealSearch } from "./pages/deals/schemas";
import { disputeQueueSearch } from "./pages/dispute-queue/schemas";
import { disputesSearch } from "./pages/disputes/schemas";
import { prefetchHome } from "./pages/home/loader";
import { jobsSearch } from "./pages/jobs/schemas";
import { auditSearch, requestLogSearch } from "./pages/logs/schemas";
import { payoutsSearch } from "./pages/payouts/schemas";
import { peopleSearch } from "./pages/people/schemas";
import { plansSearch } from "./pages/plans/schemas";
import { spiffsSearch } from "./pages/spiffs/schemas";
import { statementSearch } from "./pages/statements/schemas";
import { teamSearch } from "./pages/team/schemas";
import { webhookSearch, webhooksSearch } from "./pages/webhooks/schemas";
import { AppLayout, type NavEntry } from "./ui/AppLayout";
import { ErrorState, NotAllowedState, NotFoundState, PageLoader } from "./ui/states";

const EVERYONE: readonly Role[] = ["rep", "manager", "finance", "admin"];
/** The roles whose pages read everyone's records (a finance user reads as a read key does, API.md §11). */
const READS_ALL: readonly Role[] = ["finance", "admin"];
const ADMINS: readonly Role[] = ["admin"];

interface Page {
  /** As the router writes it ("/deals/$dealId"); the server serves each as the console (CONSOLE_PAGES). */
  path: string;
  /** Who may open it ("public": no session needed); anyone else gets the "not allowed" page. */
  roles: readonly Role[] | "public";
  /** Listed in the navigation, for the same roles. */
  nav?: { label: string; section: NavEntry["section"]; to?: () => string; match?: string };
}

/**
 * Every page of the console, once: the router's routes below, the navigation (navFor) and the test
 * that holds the server's list of console paths to it (test/console/routes.test.ts) read this table.
 * A page that reads with the API's `MAY.*` roles names the same roles here; what protects the data
 * is the API's own refusal.
 */
export const PAGES = {
  signIn: { path: "/sign-in", roles: "public" },
  invite: { path: "/invite", roles: "public" },
  home: { path: "/", roles: EVERYONE, nav: { label: "Home", section: "pay" } },
  person: { path: "/people/$userId", roles: EVERYONE },
  deal: { path: "/deals/$dealId", roles: EVERYONE },
  statement: {
    path: "/statements/$period",
    roles: EVERYONE,
    nav: {
      label: "Statement",
      section: "pay",
      to: () => `/statements/${currentPeriodLabel("quarter")}`,
      match: "/statements",
    },
  },
  whatIf: { path: "/what-if", roles: EVERYONE, nav: { label: "What-if", section: "pay" } },
  disputes: { path: "/disputes", roles: EVERYONE, nav: { label: "My disputes", section: "pay" } },
  team: { path: "/team", roles: ["manager", "finance", "admin"], nav: { label: "Team", section: "pay" } },
  approvals: { path: "/approvals", roles: ADMINS, nav: { label: "Approvals", section: "cycle" } },
  disputeQueue: { path: "/dispute-queue", roles: ADMINS, nav: { label: "Dispute queue", section: "cycle" } },
  payouts: { path: "/payouts", roles: READS_ALL, nav: { label: "Payouts", section: "cycle" } },
  // Finance reads plans and may preview a change's impact (MAY.previewPlanChange); only admins change them.
  plans: { path: "/plans", roles: READS_ALL, nav: { label: "Plans", section: "setup" } },
  plan: { path: "/plans/$planId", roles: READS_ALL },
  spiffs: { path: "/spiffs", roles: READS_ALL, nav: { label: "SPIFFs", section: "setup" } },
  people: { path: "/people", roles: READS_ALL, nav: { label: "People", section: "setup" } },
  apiKeys: { path: "/api-keys", roles: ADMINS, nav: { label: "API keys", section: "system" } },
  webhooks: { path: "/webhooks", roles: ADMINS, nav: { label: "Webhooks", section: "system" } },
  webhook: { path: "/webhooks/$subscriptionId", roles: ADMINS },
  audit: { path: "/audit", roles: ADMINS, nav: { label: "Audit log", section: "system" } },
  requestLog: { path: "/request-log", roles: ADMINS, nav: { label: "Request log", section: "system" } },
  jobs: { path: "/jobs", roles: ADMINS, nav: { label: "Jobs", section: "system" } },
  account: { path: "/account", roles: EVERYONE, nav: { label: "Account", section: "settings" } },
} as const satisfies Record<string, Page>;

const mayOpen = (page: Page, role: Role) => page.roles === "public" || page.roles.includes(role);

/** The navigation of a person: the pages of the table their role may open, in the table's order. */
export function navFor(role: Role): NavEntry[] {
  return Object.values(PAGES as Record<string, Page>).flatMap(({ path, roles, nav }) =>
    nav && mayOpen({ path, roles }, role)
      ? [{ label: nav.label, section: nav.section, to: nav.to ?? (() => path), match: nav.match ?? path }]
      : [],
  );
}

export interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: () => <NotFoundState />,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PAGES.signIn.path,
  validateSearch: signInSearch,
  component: lazyRouteComponent(() => import("./pages/auth/SignInPage"), "SignInPage"),
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PAGES.invite.path,
  component: lazyRouteComponent(() => import("./pages/auth/InvitePage"), "InvitePage"),
});

/** Every page below needs a session: without one, sign in first and come back here. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  beforeLoad: async ({ context: { queryClient }, location, preload }) => {
    const hadSession = Boolean(queryClient.getQueryData(sessionQuery().queryKey));
    // A session ends without the page knowing (revoked, timed out, signed out elsewhere): every page
    // opened asks again, so the person signs in again here, not on a page that cannot load. A preload
    // on hover reuses what is known.
    const session = preload
      ? await queryClient.ensureQueryData(sessionQuery())
      : await queryClient.fetchQuery({ ...sessionQuery(), staleTime: 0 });
    if (!session) {
      const reason = hadSession ? "expired" : undefined;
      throw redirect({ to: "/sign-in", search: { return_to: location.href, reason } });
    }
    return { session };
  },
  component: function SignedIn(): ReactNode {
    const { session } = useRouteContext({ from: "/signed-in" });
    return <AppLayout user={session.user} entries={navFor(session.user.role)} />;
  },
});

type Load = () => Promise<Record<string, unknown>>;

/**
 * A page's screen for the roles the table gives it, the "not allowed" page for anyone else: then the
 * page's code never loads. This is for the person's sake; what protects the data is the API's refusal.
 */
function screen(page: Page, load: Load, name: string) {
  const Screen = lazyRouteComponent(load as never, name) as (() => ReactNode) & { preload?: () => Promise<void> };
  if (page.roles === "public" || page.roles === EVERYONE) return Screen;
  const roles = page.roles;
  return function RolePage(): ReactNode {
    const { session } = useRouteContext({ from: "/signed-in" });
    return roles.includes(session.user.role) ? <Screen /> : <NotAllowedState roles={roles} />;
  };
}

/** A route's first requests start while its code chunk loads, for those allowed to open it. */
const allowed = (page: Page, context: { session: { user: { role: Role } } }) =>
  mayOpen(page, context.session.user.role);

const signedIn = () => signedInRoute;

/** A page's route from its row of the table: its path, search parameters and screen. */
function pageRoute<const TPath extends string, TSearch extends AnyValidator | undefined = undefined>(
  page: Page & { path: TPath },
  search: TSearch,
  load: Load,
  name: string,
) {
  return createRoute({
    getParentRoute: signedIn,
    path: page.path,
    validateSearch: search as TSearch,
    component: screen(page, load, name),
  });
}

const homeRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.home.path,
  loader: ({ context }) => prefetchHome(context.queryClient, context.session.user.id),
  component: screen(PAGES.home, () => import("./pages/home/HomePage"), "HomePage"),
});
const personRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.person.path,
  loader: ({ context, params }) => prefetchHome(context.queryClient, params.userId),
  component: screen(PAGES.person, () => import("./pages/home/PersonPage"), "PersonPage"),
});
const dealRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.deal.path,
  validateSearch: dealSearch,
  loader: ({ context, params, location }) =>
    prefetchDealPage(context.queryClient, params.dealId, dealSearch.parse(location.search).history),
  component: screen(PAGES.deal, () => import("./pages/deals/DealPage"), "DealPage"),
});
const statementRoute = pageRoute(
  PAGES.statement,
  statementSearch,
  () => import("./pages/statements/StatementPage"),
  "StatementPage",
);
const whatIfRoute = pageRoute(PAGES.whatIf, undefined, () => import("./pages/what-if/WhatIfPage"), "WhatIfPage");
const disputesRoute = pageRoute(
  PAGES.disputes,
  disputesSearch,
  () => import("./pages/disputes/DisputesPage"),
  "DisputesPage",
);
const teamRoute = pageRoute(PAGES.team, teamSearch, () => import("./pages/team/TeamPage"), "TeamPage");
const approvalsRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.approvals.path,
  validateSearch: approvalsSearch,
  loader: ({ context, location }) =>
    allowed(PAGES.approvals, context)
      ? prefetchApprovals(context.queryClient, approvalsSearch.parse(location.search))
      : undefined,
  component: screen(PAGES.approvals, () => import("./pages/approvals/ApprovalsPage"), "ApprovalsPage"),
});
const disputeQueueRoute = pageRoute(
  PAGES.disputeQueue,
  disputeQueueSearch,
  () => import("./pages/dispute-queue/DisputeQueuePage"),
  "DisputeQueuePage",
);
const payoutsRoute = pageRoute(
  PAGES.payouts,
  payoutsSearch,
  () => import("./pages/payouts/PayoutsPage"),
  "PayoutsPage",
);
const plansRoute = pageRoute(PAGES.plans, plansSearch, () => import("./pages/plans/PlansPage"), "PlansPage");
const planRoute = pageRoute(PAGES.plan, undefined, () => import("./pages/plans/PlanPage"), "PlanPage");
const spiffsRoute = pageRoute(PAGES.spiffs, spiffsSearch, () => import("./pages/spiffs/SpiffsPage"), "SpiffsPage");
const peopleRoute = pageRoute(PAGES.people, peopleSearch, () => import("./pages/people/PeoplePage"), "PeoplePage");
const apiKeysRoute = pageRoute(
  PAGES.apiKeys,
  apiKeysSearch,
  () => import("./pages/api-keys/ApiKeysPage"),
  "ApiKeysPage",
);
const webhooksRoute = pageRoute(
  PAGES.webhooks,
  webhooksSearch,
  () => import("./pages/webhooks/WebhooksPage"),
  "WebhooksPage",
);
const webhookRoute = pageRoute(
  PAGES.webhook,
  webhookSearch,
  () => import("./pages/webhooks/WebhookPage"),
  "WebhookPage",
);
const auditRoute = pageRoute(PAGES.audit, auditSearch, () => import("./pages/logs/AuditPage"), "AuditPage");
const requestLogRoute = pageRoute(
  PAGES.requestLog,
  requestLogSearch,
  () => import("./pages/logs/RequestLogPage"),
  "RequestLogPage",
);
const jobsRoute = pageRoute(PAGES.jobs, jobsSearch, () => import("./pages/jobs/JobsPage"), "JobsPage");
const accountRoute = pageRoute(PAGES.account, undefined, () => import("./pages/auth/AccountPage"), "AccountPage");

export const routeTree = rootRoute.addChildren([
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
    approvalsRoute,
    disputeQueueRoute,
    payoutsRoute,
    plansRoute,
    planRoute,
    spiffsRoute,
    peopleRoute,
    apiKeysRoute,
    webhooksRoute,
    webhookRoute,
    auditRoute,
    requestLogRoute,
    jobsRoute,
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
