import type { QueryClient } from "@tanstack/react-query";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// boot.ts asks for a page's first data before the console's code runs; the client takes those answers
// only for the very same path and query. These tests hold boot's list (early-paths.ts) equal to what the
// route loaders ask for through the client, so a changed query cannot silently turn the early requests
// into duplicates.

// The console's modules resolve as Vite does (no file extensions), not as this project's tsc does:
// imported by a path tsc does not follow, so the root typecheck leaves them to web/tsconfig.json.
const web = (path: string): Promise<any> => import(`../../web/src/${path}`);

const ORIGIN = "http://console.test";
const storage = new Map<string, string>();
let requested: string[] = [];
/** What the stubbed network answers a path with (200 otherwise). */
const statusOf = new Map<string, number>();

beforeAll(() => {
  vi.stubGlobal("location", new URL(`${ORIGIN}/`));
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  });
  vi.stubGlobal("fetch", async (input: Request | string) => {
    const url = new URL(typeof input === "string" ? input : input.url, ORIGIN);
    requested.push(url.pathname + url.search);
    const status = statusOf.get(url.pathname) ?? 200;
    return new Response(JSON.stringify({ data: [], plans: [], lines: [], user: { id: "usr_viewer" } }), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
});

afterEach(() => {
  requested = [];
  storage.clear();
  statusOf.clear();
});

afterAll(() => {
  vi.unstubAllGlobals();
});

async function loaderRequests(load: (client: QueryClient) => void) {
  const { QueryClient } = await import("@tanstack/react-query");
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  requested = [];
  load(client);
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
  return [...requested].sort();
}

describe("boot's early requests are the ones the pages' loaders make", () => {
  const rep = { id: "usr_01ABC", role: "rep" };

  it("a rep's home, first visit: the current statements, the person's periods and recent deals", async () => {
    const { prefetchHome } = await web("pages/home/loader");
    const { earlyPaths } = await web("early-paths");
    const made = await loaderRequests((client) => prefetchHome(client, rep));
    expect(made).toHaveLength(5);
    expect(made).toEqual([...earlyPaths("/", rep)].sort());
  });

  it("a rep's home, a quarterly plan shown last time: its three earlier quarters too", async () => {
    const { prefetchHome, prefetchPersonHome } = await web("pages/home/loader");
    const { rememberPeriodKinds } = await web("lib/remembered");
    const { earlyPaths } = await web("early-paths");
    rememberPeriodKinds("usr_01ABC", ["quarter"]);
    const made = await loaderRequests((client) => prefetchHome(client, rep));
    expect(made).toHaveLength(8);
    expect(made).toEqual([...earlyPaths("/", rep)].sort());
    // Someone's page (/people/{id}) is their own commissions, whoever looks.
    const admin = { id: "usr_viewer", role: "admin" };
    expect(await loaderRequests((client) => prefetchPersonHome(client, "usr_01ABC"))).toEqual(made);
    expect([...earlyPaths("/people/usr_01ABC", admin)].sort()).toEqual(made);
  });

  it("finance's and an admin's homes ask for what they show, never a statement of their own", async () => {
    const { prefetchHome } = await web("pages/home/loader");
    const { earlyPaths } = await web("early-paths");
    const finance = { id: "usr_01FIN", role: "finance" };
    const made = await loaderRequests((client) => prefetchHome(client, finance));
    expect(made).toEqual(["/api/v1/payouts?page=1&per_page=100"]);
    expect(earlyPaths("/", finance)).toEqual(made);

    const admin = { id: "usr_01ADM", role: "admin" };
    const asked = await loaderRequests((client) => prefetchHome(client, admin));
    // The checklist's counts (assignments over every plan, one request) and the inbox's, one record each.
    expect(asked).toEqual(
      [
        "/api/v1/comp-plans?page=1&per_page=1",
        "/api/v1/users?page=1&per_page=1&role=rep",
        "/api/v1/plan-assignments?page=1&per_page=1",
        "/api/v1/deals?page=1&per_page=1",
        "/api/v1/api-keys?page=1&per_page=1",
        "/api/v1/deals?page=1&per_page=1&status=pending",
        "/api/v1/disputes?page=1&per_page=1&status=open",
        "/api/v1/payouts?page=1&per_page=1",
      ].sort(),
    );
    expect([...earlyPaths("/", admin)].sort()).toEqual(asked);
  });

  it("a manager's home: their team and what waits for them, then their own commissions", async () => {
    const { prefetchHome } = await web("pages/home/loader");
    const { earlyPaths } = await web("early-paths");
    const manager = { id: "usr_01MGR", role: "manager" };
    const made = await loaderRequests((client) => prefetchHome(client, manager));
    expect(made).toHaveLength(8);
    expect(made).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/api\/v1\/users\/statements\?on=\d{4}-\d{2}-\d{2}&page=1&per_page=100$/),
        "/api/v1/deals?page=1&per_page=1&status=pending",
      ]),
    );
    expect(made.filter((path) => path.startsWith("/api/v1/users/usr_01MGR/statement?"))).toHaveLength(3);
    expect(made).toEqual([...earlyPaths("/", manager)].sort());
  });

  it("the remembered viewer: their id and role, or no one (an id alone, as stored before roles, is forgotten)", async () => {
    const { rememberViewer, rememberedViewer } = await web("lib/remembered");
    rememberViewer({ id: "usr_01ADM", role: "admin", name: "Ada" });
    expect(rememberedViewer()).toEqual({ id: "usr_01ADM", role: "admin" });
    storage.set("cts:last-viewer", "usr_01ADM");
    expect(rememberedViewer()).toBeUndefined();
    rememberViewer(undefined);
    expect(storage.has("cts:last-viewer")).toBe(false);
  });

  it("deal page: the deal, the people, its disputes and the first history page", async () => {
    const { prefetchDealPage } = await web("pages/deals/loader");
    const { earlyPaths } = await web("early-paths");
    const made = await loaderRequests((client) => prefetchDealPage(client, "deal_01XYZ"));
    expect(made).toHaveLength(4);
    expect(made).toEqual([...earlyPaths("/deals/deal_01XYZ", { id: "usr_viewer", role: "rep" })].sort());
  });

  it("pages without early requests", async () => {
    const { earlyPaths } = await web("early-paths");
    expect(earlyPaths("/team", { id: "usr_1", role: "manager" })).toEqual([]);
    expect(earlyPaths("/statements/2026-Q3", { id: "usr_1", role: "rep" })).toEqual([]);
  });
});

describe("the client takes an early answer once, for the same path and query only", () => {
  it("one network request for a GET boot started; a second GET asks the network again", async () => {
    const { startEarly } = await web("api/early");
    const { api } = await web("api/client");
    startEarly("/api/v1/deals/deal_1");
    expect(requested).toEqual(["/api/v1/deals/deal_1"]);
    await api.GET("/api/v1/deals/{id}", { params: { path: { id: "deal_1" } } });
    expect(requested).toEqual(["/api/v1/deals/deal_1"]);
    await api.GET("/api/v1/deals/{id}", { params: { path: { id: "deal_1" } } });
    await api.GET("/api/v1/deals/{id}", { params: { path: { id: "deal_2" } } });
    expect(requested).toEqual(["/api/v1/deals/deal_1", "/api/v1/deals/deal_1", "/api/v1/deals/deal_2"]);
  });

  it("a dependent request starts before the answer it depends on is handed out", async () => {
    const { startEarly, takeEarly } = await web("api/early");
    startEarly("/api/v1/auth/session", (body: { user: { id: string } }) => [`/api/v1/users/${body.user.id}`]);
    const session = takeEarly("/api/v1/auth/session");
    expect(session).toBeDefined();
    await session;
    expect(requested).toEqual(["/api/v1/auth/session", "/api/v1/users/usr_viewer"]);
    expect(takeEarly("/api/v1/users/usr_viewer")).toBeDefined();
    expect(takeEarly("/api/v1/users/usr_viewer")).toBeUndefined();
  });

  it("a 401 taken early is handed out as it is, not asked again (each counts as a failed authentication)", async () => {
    const { startEarly } = await web("api/early");
    const { api } = await web("api/client");
    statusOf.set("/api/v1/auth/session", 401);
    startEarly("/api/v1/auth/session");
    const { response } = await api.GET("/api/v1/auth/session");
    expect(response.status).toBe(401);
    expect(requested).toEqual(["/api/v1/auth/session"]);
  });

  it("a 401 from before a sign-in is not handed out after it", async () => {
    const { startEarly } = await web("api/early");
    const { api } = await web("api/client");
    statusOf.set("/api/v1/deals/deal_3", 401);
    startEarly("/api/v1/deals/deal_3");
    await api.POST("/api/v1/auth/login", { body: { email: "a@example.com", password: "x" } });
    statusOf.set("/api/v1/deals/deal_3", 200);
    const { response } = await api.GET("/api/v1/deals/{id}", { params: { path: { id: "deal_3" } } });
    expect(response.status).toBe(200);
    expect(requested).toEqual(["/api/v1/deals/deal_3", "/api/v1/auth/login", "/api/v1/deals/deal_3"]);
  });

  it("a write (sign-in, sign-out, any other) drops the early answers not taken yet", async () => {
    const { startEarly } = await web("api/early");
    const { api } = await web("api/client");
    startEarly("/api/v1/deals/deal_4");
    await api.POST("/api/v1/auth/login", { body: { email: "a@example.com", password: "x" } });
    await api.GET("/api/v1/deals/{id}", { params: { path: { id: "deal_4" } } });
    expect(requested).toEqual(["/api/v1/deals/deal_4", "/api/v1/auth/login", "/api/v1/deals/deal_4"]);
  });
});
