import type { QueryClient } from "@tanstack/react-query";
import {
  type AnyValidator,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
  useParams,
  useRouteContext,
  useRouter,
} from "@tanstack/react-router";
import { type ReactNode, use } from "react";
import { isOffline, OfflineError } from "./api/errors";
import { type Role, type Session, sessionQuery } from "./data/auth/queries";
import { ID_PREFIXES, isIdOf } from "./lib/ids";
import { isPeriodLabel } from "./lib/periods";
import { accountingSearch } from "./pages/accounting/schemas";
import { acknowledgementsSearch } from "./pages/acknowledgements/schemas";
import { apiKeysSearch } from "./pages/api-keys/schemas";
import { prefetchApprovals } from "./pages/approvals/queue";
import { approvalsSearch } from "./pages/approvals/schemas";
import { signInSearch } from "./pages/auth/schemas";
import { dealListSearch } from "./pages/deal-list/schemas";
import { prefetchDealPage } from "./pages/deals/loader";
import { dealSearch } from "./pages/deals/schemas";
import { disputeQueueSearch } from "./pages/dispute-queue/schemas";
import { disputesSearch } from "./pages/disputes/schemas";
import { drawsSearch } from "./pages/draws/schemas";
import { exchangeRatesSearch } from "./pages/exchange-rates/schemas";
import { prefetchHome, prefetchPersonHome } from "./pages/home/loader";
import { importsSearch } from "./pages/imports/schemas";
import { jobsSearch } from "./pages/jobs/schemas";
import { auditSearch, requestLogSearch } from "./pages/logs/schemas";

import { payoutRunSearch, payoutsSearch } from "./pages/payouts/schemas";
import { peopleSearch } from "./pages/people/schemas";
import { planAcknowledgementsSearch } from "./pages/plan-acknowledgements/schemas";
import { plansSearch } from "./pages/plans/schemas";
import { spiffsSearch } from "./pages/spiffs/schemas";
import { openingStatementPeriod } from "./pages/statements/loader";
import { statementSearch } from "./pages/statements/schemas";
import { teamSearch } from "./pages/team/schemas";
import { webhookSearch, webhooksSearch } from "./pages/webhooks/schemas";
import { AppLayout, type NavEntry } from "./ui/AppLayout";
import { usePageTitle } from "./ui/page-title";
import { ErrorState, NotAllowedState, NotFoundState, PageLoader } from "./ui/states";

const EVERYONE: readonly Role[] = ["rep", "manager", "finance", "admin"];
/** The roles whose pages read everyone's records (a finance user reads as a read key does, API.md §11). */
const READS_ALL: readonly Role[] = ["finance", "admin"];
const ADMINS: readonly Role[] = ["admin"];

/** A path parameter's check: an address that fails it is the page's not-found state, asked of no one. */
interface Param {
  valid: (value: string) => boolean;
  /** What the page shows ("statement"): "This statement does not exist". */
  what: string;
  /** What the person reads under it, given the parameter as it was. */
  hint: (value: string) => string;
}

/** An id the API gave (`deal_01J…`): its prefix, then letters and digits (lib/ids.ts). */
const idParam = (prefix: string, what: string): Param => ({
  valid: (value) => isIdOf(prefix, value),
  what,
  hint: () => `The address does not name a ${what}. Check the link, or go back to your home page.`,
});

const PERIOD_PARAM: Param = {
  valid: isPeriodLabel,
  what: "statement",
  hint: (value) =>
    `"${value}" is not a period. A statement's address names one: a quarter (2026-Q4), a month (2026-07) or a year (2026).`,
};

interface Page {
  /** As the router writes it ("/deals/$dealId"); the server serves each as the console (CONSOLE_PAGES). */
  path: string;
  /** Who may open it ("public": no session needed); anyone else gets the "not allowed" page. */
  roles: readonly Role[] | "public";
  /** The page's name in the browser's tab, unique per page: "Approvals · Commission Tracking". */
  title: string;
  /** The path's parameters, each checked before the page asks the API anything. */
  params?: Record<string, Param>;
  /** Listed in the navigation, for the same roles. */
  nav?: {
    label: string;
    section: NavEntry["section"];
    to?: () => string;
    match?: string;
    /** Listed for these roles only (the page opens for `roles`: others reach it by a link). */
    roles?: readonly Role[];
  };
}

/**
 * Every page of the console, once: the router's routes below, the navigation (navFor) and the test
 * that holds the server's list of console paths to it (test/console/routes.test.ts) read this table.
 * A page that reads with the API's `MAY.*` roles names the same roles here; what protects the data
 * is the API's own refusal.
 */
export const PAGES = {
  signIn: { path: "/sign-in", title: "Sign in", roles: "public" },
  invite: { path: "/invite", title: "Accept your invitation", roles: "public" },
  forgotPassword: { path: "/forgot-password", title: "Forgot password", roles: "public" },
  resetPassword: { path: "/reset-password", title: "Choose a new password", roles: "public" },
  home: { path: "/", title: "Home", roles: EVERYONE, nav: { label: "Home", section: "pay" } },
  person: {
    path: "/people/$userId",
    title: "Person",
    params: { userId: idParam(ID_PREFIXES.person, "person") },
    roles: EVERYONE,
  },
  deals: { path: "/deals", title: "Deals", roles: EVERYONE, nav: { label: "Deals", section: "pay" } },
  // POST, PATCH and DELETE /deals take the write scope, which of the roles only admins' carries (MAY.write).
  newDeal: { path: "/deals/new", title: "New deal", roles: ADMINS },
  editDeal: {
    path: "/deals/$dealId/edit",
    title: "Edit deal",
    params: { dealId: idParam(ID_PREFIXES.deal, "deal") },
    roles: ADMINS,
  },
  deal: {
    path: "/deals/$dealId",
    title: "Deal",
    params: { dealId: idParam(ID_PREFIXES.deal, "deal") },
    roles: EVERYONE,
  },
  // The menu's Statement: the person's own plan period ("2026" on a yearly plan), found by its loader.
  statements: {
    path: "/statements",
    title: "Opening your statement",
    roles: EVERYONE,
    nav: { label: "Statement", section: "pay" },
  },
  statement: { path: "/statements/$period", title: "Statement", params: { period: PERIOD_PARAM }, roles: EVERYONE },
  whatIf: { path: "/what-if", title: "What-if", roles: EVERYONE, nav: { label: "What-if", section: "pay" } },
  disputes: { path: "/disputes", title: "My disputes", roles: EVERYONE, nav: { label: "My disputes", section: "pay" } },
  // Every role may have plans; acknowledging one never gates pay (docs/notifications.md §5).
  acknowledgements: {
    path: "/acknowledgements",
    title: "Plans to acknowledge",
    roles: EVERYONE,
    nav: { label: "Plans to acknowledge", section: "pay" },
  },
  acknowledgement: {
    path: "/acknowledgements/$acknowledgementId",
    title: "Plan to acknowledge",
    params: { acknowledgementId: idParam(ID_PREFIXES.planAcknowledgement, "plan acknowledgement") },
    roles: EVERYONE,
  },
  team: {
    path: "/team",
    title: "Team",
    roles: ["manager", "finance", "admin"],
    nav: { label: "Team", section: "pay" },
  },
  approvals: { path: "/approvals", title: "Approvals", roles: ADMINS, nav: { label: "Approvals", section: "cycle" } },
  disputeQueue: {
    path: "/dispute-queue",
    title: "Dispute queue",
    roles: ADMINS,
    nav: { label: "Dispute queue", section: "cycle" },
  },
  payouts: { path: "/payouts", title: "Payouts", roles: READS_ALL, nav: { label: "Payouts", section: "cycle" } },
  // GET /draws reads per §11 (a rep their own); the menu lists it for who writes draws (API.md §18).
  draws: {
    path: "/draws",
    title: "Draws",
    roles: EVERYONE,
    nav: { label: "Draws", section: "cycle", roles: READS_ALL },
  },
  payoutRun: {
    path: "/payouts/runs/$runId",
    title: "Payout run",
    params: { runId: idParam(ID_PREFIXES.payoutRun, "payout run") },
    roles: READS_ALL,
  },
  // Finance reads plans and may preview a change's impact (MAY.previewPlanChange); only admins change them.
  // The accounting reports are finance's and admins' (API.md §17); changing the settings is admins'.
  accounting: {
    path: "/accounting",
    title: "Accounting",
    roles: READS_ALL,
    nav: { label: "Accounting", section: "cycle" },
  },
  plans: { path: "/plans", title: "Plans", roles: READS_ALL, nav: { label: "Plans", section: "setup" } },
  plan: {
    path: "/plans/$planId",
    title: "Plan",
    params: { planId: idParam(ID_PREFIXES.plan, "plan") },
    roles: READS_ALL,
  },
  spiffs: { path: "/spiffs", title: "SPIFFs", roles: READS_ALL, nav: { label: "SPIFFs", section: "setup" } },
  people: { path: "/people", title: "People", roles: READS_ALL, nav: { label: "People", section: "setup" } },
  // GET /plan-acknowledgements is MAY.readPayouts: who has not acknowledged their plan.
  planAcknowledgements: {
    path: "/plan-acknowledgements",
    title: "Plan acknowledgements",
    roles: READS_ALL,
    nav: { label: "Acknowledgements", section: "setup", roles: READS_ALL },
  },
  // PUT and DELETE /exchange-rates take the admin scope; the page is for entering them (API.md §15).
  exchangeRates: {
    path: "/exchange-rates",
    title: "Exchange rates",
    roles: ADMINS,
    nav: { label: "Exchange rates", section: "setup" },
  },
  // Imports write (API.md §19: write scope), which of the people is admins alone.
  imports: { path: "/imports", title: "Import", roles: ADMINS, nav: { label: "Import", section: "setup" } },
  apiKeys: { path: "/api-keys", title: "API keys", roles: ADMINS, nav: { label: "API keys", section: "system" } },
  webhooks: { path: "/webhooks", title: "Webhooks", roles: ADMINS, nav: { label: "Webhooks", section: "system" } },
  webhook: {
    path: "/webhooks/$subscriptionId",
    title: "Webhook subscription",
    params: { subscriptionId: idParam(ID_PREFIXES.webhookSubscription, "webhook subscription") },
    roles: ADMINS,
  },
  audit: { path: "/audit", title: "Audit log", roles: ADMINS, nav: { label: "Audit log", section: "system" } },
  requestLog: {
    path: "/request-log",
    title: "Request log",
    roles: ADMINS,
    nav: { label: "Request log", section: "system" },
  },
  jobs: { path: "/jobs", title: "Jobs", roles: ADMINS, nav: { label: "Jobs", section: "system" } },
  account: { path: "/account", title: "Account", roles: EVERYONE, nav: { label: "Account", section: "settings" } },
} as const satisfies Record<string, Page>;

const mayOpen = (page: Pick<Page, "roles">, role: Role) => page.roles === "public" || page.roles.includes(role);

/** The navigation of a person: the pages of the table their role may open, in the table's order. */
export function navFor(role: Role): NavEntry[] {
  return Object.values(PAGES as Record<string, Page>).flatMap(({ path, roles, nav }) =>
    nav && mayOpen({ roles }, role) && (!nav.roles || nav.roles.includes(role))
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
  component: screen(PAGES.signIn, () => import("./pages/auth/SignInPage"), "SignInPage"),
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PAGES.invite.path,
  component: screen(PAGES.invite, () => import("./pages/auth/InvitePage"), "InvitePage"),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PAGES.forgotPassword.path,
  component: screen(PAGES.forgotPassword, () => import("./pages/auth/ForgotPasswordPage"), "ForgotPasswordPage"),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: PAGES.resetPassword.path,
  component: screen(PAGES.resetPassword, () => import("./pages/auth/ResetPasswordPage"), "ResetPasswordPage"),
});

/** Every page below needs a session: without one, sign in first and come back here. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  beforeLoad: async ({ context: { queryClient }, location, preload }) => {
    const known = queryClient.getQueryData(sessionQuery().queryKey);
    const hadSession = Boolean(known);
    // A session ends without the page knowing (revoked, timed out, signed out elsewhere): every page
    // opened asks again, so the person signs in again here, not on a page that cannot load. A preload
    // on hover reuses what is known. When the server does not answer, the session known so far keeps
    // the menu, and the page shows the offline state in its place.
    let session: Session | null;
    try {
      session = preload
        ? await queryClient.ensureQueryData(sessionQuery())
        : await queryClient.fetchQuery({ ...sessionQuery(), staleTime: 0, retry: false });
    } catch (err) {
      if (!known || !isOffline(err)) throw err;
      session = known;
    }
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
type Lazy = (() => ReactNode) & { preload: () => Promise<void> };

/** Whether the server answers at all (its public page): a chunk that fails while it does is a new version. */
const serverAnswers = () =>
  fetch("/", { method: "HEAD", cache: "no-store" }).then(
    () => true,
    () => false,
  );

/**
 * A page's code, loaded on first use (with the route: the router calls `preload`). A chunk that does
 * not arrive while the server does not answer (stopped, network down) is an OfflineError: the page
 * area shows the offline state, and the next try (its retry, or the next render) loads it again. A
 * chunk missing from a server that answers (a new version deployed) reloads the page, once.
 */
function lazyPage(load: Load, name: string): Lazy {
  let Component: (() => ReactNode) | undefined;
  let loading: Promise<void> | undefined;
  const preload = (): Promise<void> => {
    loading ??= load().then(
      (module) => {
        Component = module[name] as () => ReactNode;
        sessionStorage.removeItem(`cts:reloaded-for:${name}`);
      },
      async (cause: unknown) => {
        loading = undefined;
        if (!(await serverAnswers())) throw new OfflineError(cause);
        const reloaded = `cts:reloaded-for:${name}`;
        if (sessionStorage.getItem(reloaded)) throw cause;
        sessionStorage.setItem(reloaded, "1");
        window.location.reload();
        await new Promise(() => {}); // the page goes away
      },
    );
    return loading;
  };
  const Lazy = (): ReactNode => {
    if (!Component) use(preload());
    return Component ? <Component /> : null;
  };
  return Object.assign(Lazy, { preload });
}

/** The first of a page's parameters that is not what its address needs (`/statements/garbage`), if any. */
function invalidParam(page: Page, params: Record<string, string | undefined>): [Param, string] | undefined {
  for (const [name, param] of Object.entries(page.params ?? {})) {
    const value = params[name] ?? "";
    if (!param.valid(value)) return [param, value];
  }
  return undefined;
}

/** Whether the page's loader may ask the API: an invalid address asks nothing. */
const validParams = (page: Page, params: Record<string, string>) => invalidParam(page, params) === undefined;

/** The page's not-found state for an address whose parameter is not one; else the page. */
function InvalidParams({ page, children }: { page: Page; children: ReactNode }): ReactNode {
  const invalid = invalidParam(page, useParams({ strict: false }) as Record<string, string | undefined>);
  if (!invalid) return children;
  const [param, value] = invalid;
  return <NotFoundState what={param.what}>{param.hint(value)}</NotFoundState>;
}

/**
 * A page's screen for the roles the table gives it, the "not allowed" page for anyone else: then the
 * page's code never loads. This is for the person's sake; what protects the data is the API's refusal.
 * The tab is named after the page, and an address whose parameters are not valid is the page's
 * not-found state.
 */
function screen(page: Page, load: Load, name: string) {
  const Screen = lazyPage(load, name);
  const roles = page.roles;
  const PageScreen = (): ReactNode => {
    usePageTitle(page.title);
    return (
      <InvalidParams page={page}>
        {roles === "public" || roles === EVERYONE ? <Screen /> : <RoleScreen roles={roles} Screen={Screen} />}
      </InvalidParams>
    );
  };
  // Pages everyone opens load their code with the route (the router calls preload); the others on render.
  if (roles === "public" || roles === EVERYONE) return Object.assign(PageScreen, { preload: Screen.preload });
  return PageScreen;
}

function RoleScreen({ roles, Screen }: { roles: readonly Role[]; Screen: Lazy }): ReactNode {
  const { session } = useRouteContext({ from: "/signed-in" });
  return roles.includes(session.user.role) ? <Screen /> : <NotAllowedState roles={roles} />;
}

/** An address no page has (`/nope`, `/deals/x/y`): the not-found page, inside the signed-in frame. */
function UnknownPage(): ReactNode {
  usePageTitle("Page not found");
  return <NotFoundState what="page" />;
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
  loader: ({ context }) => prefetchHome(context.queryClient, context.session.user),
  component: screen(PAGES.home, () => import("./pages/home/HomePage"), "HomePage"),
});
const personRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.person.path,
  loader: ({ context, params }) =>
    validParams(PAGES.person, params) ? prefetchPersonHome(context.queryClient, params.userId) : undefined,
  component: screen(PAGES.person, () => import("./pages/home/PersonPage"), "PersonPage"),
});
const dealsRoute = pageRoute(
  PAGES.deals,
  dealListSearch,
  () => import("./pages/deal-list/DealListPage"),
  "DealListPage",
);
const dealRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.deal.path,
  validateSearch: dealSearch,
  loader: ({ context, params, location }) =>
    validParams(PAGES.deal, params)
      ? prefetchDealPage(context.queryClient, params.dealId, dealSearch.parse(location.search).history)
      : undefined,
  component: screen(PAGES.deal, () => import("./pages/deals/DealPage"), "DealPage"),
});
const newDealRoute = pageRoute(PAGES.newDeal, undefined, () => import("./pages/deals/NewDealPage"), "NewDealPage");
const editDealRoute = pageRoute(PAGES.editDeal, undefined, () => import("./pages/deals/EditDealPage"), "EditDealPage");
/** /statements: the person's plan period, found before anything is drawn; the address is replaced. */
const statementsRoute = createRoute({
  getParentRoute: signedIn,
  path: PAGES.statements.path,
  validateSearch: statementSearch,
  beforeLoad: async ({ context, search }) => {
    const period = await openingStatementPeriod(context.queryClient, search.user ?? context.session.user.id);
    throw redirect({ to: "/statements/$period", params: { period }, search: { user: search.user }, replace: true });
  },
  component: PageLoader,
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
const acknowledgementsRoute = pageRoute(
  PAGES.acknowledgements,
  acknowledgementsSearch,
  () => import("./pages/acknowledgements/AcknowledgementsPage"),
  "AcknowledgementsPage",
);
const acknowledgementRoute = pageRoute(
  PAGES.acknowledgement,
  undefined,
  () => import("./pages/acknowledgements/AcknowledgementPage"),
  "AcknowledgementPage",
);
const planAcknowledgementsRoute = pageRoute(
  PAGES.planAcknowledgements,
  planAcknowledgementsSearch,
  () => import("./pages/plan-acknowledgements/PlanAcknowledgementsPage"),
  "PlanAcknowledgementsPage",
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
const payoutRunRoute = pageRoute(PAGES.payoutRun, payoutRunSearch, () => import("./pages/payouts/RunPage"), "RunPage");
const accountingRoute = pageRoute(
  PAGES.accounting,
  accountingSearch,
  () => import("./pages/accounting/AccountingPage"),
  "AccountingPage",
);
const plansRoute = pageRoute(PAGES.plans, plansSearch, () => import("./pages/plans/PlansPage"), "PlansPage");
const planRoute = pageRoute(PAGES.plan, undefined, () => import("./pages/plans/PlanPage"), "PlanPage");
const spiffsRoute = pageRoute(PAGES.spiffs, spiffsSearch, () => import("./pages/spiffs/SpiffsPage"), "SpiffsPage");
const peopleRoute = pageRoute(PAGES.people, peopleSearch, () => import("./pages/people/PeoplePage"), "PeoplePage");
const drawsRoute = pageRoute(PAGES.draws, drawsSearch, () => import("./pages/draws/DrawsPage"), "DrawsPage");
const exchangeRatesRoute = pageRoute(
  PAGES.exchangeRates,
  exchangeRatesSearch,
  () => import("./pages/exchange-rates/ExchangeRatesPage"),
  "ExchangeRatesPage",
);
const importsRoute = pageRoute(
  PAGES.imports,
  importsSearch,
  () => import("./pages/imports/ImportsPage"),
  "ImportsPage",
);
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
/** Every other address, once signed in (the server answers unknown pages with the console too). */
const unknownRoute = createRoute({ getParentRoute: signedIn, path: "$", component: UnknownPage });

export const routeTree = rootRoute.addChildren([
  signInRoute,
  inviteRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  signedInRoute.addChildren([
    homeRoute,
    personRoute,
    dealsRoute,
    newDealRoute,
    editDealRoute,
    dealRoute,
    statementsRoute,
    statementRoute,
    whatIfRoute,
    disputesRoute,
    acknowledgementsRoute,
    acknowledgementRoute,
    planAcknowledgementsRoute,
    teamRoute,
    approvalsRoute,
    disputeQueueRoute,
    payoutsRoute,
    payoutRunRoute,
    accountingRoute,
    plansRoute,
    planRoute,
    spiffsRoute,
    peopleRoute,
    exchangeRatesRoute,
    drawsRoute,
    importsRoute,
    apiKeysRoute,
    webhooksRoute,
    webhookRoute,
    auditRoute,
    requestLogRoute,
    jobsRoute,
    accountRoute,
    unknownRoute,
  ]),
]);

/** A page that failed to load (its data or its code): the error in the page's place, the menu kept. */
function RouteError({ error, reset }: { error: unknown; reset: () => void }): ReactNode {
  const router = useRouter();
  // Loaders and the page's code run again, then the boundary draws the page.
  const retry = () => void router.invalidate().finally(reset);
  return <ErrorState error={error} retry={retry} />;
}

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: () => <NotFoundState />,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
