import { readdirSync } from "node:fs";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The console reads the API through web/src/data/: one query per endpoint, each keyed by its
// resource's factory in data/keys.ts. This file walks the factories and every query the data layer
// defines, runs each one against a stubbed network and holds them to that: no two queries fetch the
// same endpoint under different keys, and every key belongs to the resource factory it names.

const web = (path: string): Promise<any> => import(`../../web/src/${path}`);
const DATA = new URL("../../web/src/data/", import.meta.url);

/** Arguments to call each query with (two sets: different arguments must give different keys). */
const SAMPLES: Record<string, [unknown[], unknown[]]> = {
  "GET /api/v1/auth/session": [[], []],
  "GET /api/v1/auth/methods": [[], []],
  "GET /api/v1/me/notifications": [[], []],
  "GET /api/v1/deals": [[{ status: ["pending"], page: 1 }], [{ owner_id: "usr_1", sort: "-close_date", per_page: 5 }]],
  "GET /api/v1/deals/{id}": [["deal_1"], ["deal_2"]],
  "GET /api/v1/deals/{id}/history": [
    ["deal_1", 1],
    ["deal_1", 2],
  ],
  "GET /api/v1/users/{id}/statement": [
    ["usr_1", "2026-Q3"],
    ["usr_1", "2026-07"],
  ],
  "GET /api/v1/users/{id}/periods": [["usr_1"], ["usr_2"]],
  "GET /api/v1/users/statements": [
    [{ on: "2026-11-27", page: 1, per_page: 100 }],
    [{ on: "2026-09-30", page: 2, per_page: 100 }],
  ],
  "GET /api/v1/users": [[{ page: 1, per_page: 25 }], [{ role: "rep", page: 2, per_page: 25 }]],
  "GET /api/v1/users/{id}": [["usr_1"], ["usr_2"]],
  "GET /api/v1/users/{id}/reporting-lines": [["usr_1"], ["usr_2"]],
  "GET /api/v1/comp-plans": [[{ per_page: 100 }], [{ status: "active", page: 2, per_page: 25 }]],
  "GET /api/v1/comp-plans/{id}": [["plan_1"], ["plan_2"]],
  "GET /api/v1/comp-plans/{id}/versions": [["plan_1"], ["plan_2"]],
  "GET /api/v1/comp-plans/{id}/assignments": [["plan_1"], ["plan_2"]],
  "GET /api/v1/plan-assignments": [[{ page: 1, per_page: 1 }], [{ user_id: "usr_1", page: 1, per_page: 25 }]],
  "GET /api/v1/disputes": [[{ deal_id: "deal_1", per_page: 100 }], [{ status: ["open"], page: 1, per_page: 20 }]],
  "GET /api/v1/payouts": [[{ page: 1, per_page: 25 }], [{ page: 2, per_page: 25 }]],
  "GET /api/v1/payout-runs": [[{ page: 1, per_page: 10 }], [{ page: 2, per_page: 10 }]],
  "GET /api/v1/payout-runs/{id}": [
    ["prun_1", { page: 1, per_page: 50 }],
    ["prun_1", { page: 1, per_page: 50, user_id: "usr_1" }],
  ],
  "GET /api/v1/users/{id}/payout-balances": [["usr_1"], ["usr_2"]],
  "GET /api/v1/spiffs": [[{ page: 1, per_page: 25 }], [{ active: "true", page: 1, per_page: 25 }]],
  "GET /api/v1/jobs": [[{ page: 1, per_page: 25 }], [{ status: "queued", page: 1, per_page: 25 }]],
  "GET /api/v1/jobs/{id}": [["job_1"], ["job_2"]],
  "GET /api/v1/audit-events": [[{ page: 1, per_page: 50 }], [{ resource: "deal", page: 1, per_page: 50 }]],
  "GET /api/v1/request-logs": [[{ page: 1, per_page: 50 }], [{ status: 404, page: 1, per_page: 50 }]],
  "GET /api/v1/api-keys": [[{ page: 1, per_page: 25 }], [{ page: 2, per_page: 25 }]],
  "GET /api/v1/api-keys/{id}": [["key_1"], ["key_2"]],
  "GET /api/v1/exchange-rates": [[{ page: 1, per_page: 25 }], [{ page: 2, per_page: 25 }]],
  "GET /api/v1/accounting/roll-forward": [[{ from: "2026-01", to: "2026-06" }], [{ from: "2026-01", to: "2026-07" }]],
  "GET /api/v1/accounting/journal": [
    [{ month: "2026-03", summary: "true", per_page: 100 }],
    [{ month: "2026-04", summary: "true", per_page: 100 }],
  ],
  "GET /api/v1/settings/accounting": [[], []],
  "GET /api/v1/draws": [[{ page: 1, per_page: 25 }], [{ user_id: "usr_1", per_page: 100 }]],
  "GET /api/v1/draws/{id}": [["draw_1"], ["draw_2"]],
  "GET /api/v1/me/plan-acknowledgements": [[{ page: 1, per_page: 25 }], [{ status: "pending", page: 1, per_page: 1 }]],
  "GET /api/v1/plan-acknowledgements": [[{ page: 1, per_page: 25 }], [{ status: "pending", page: 1, per_page: 25 }]],
  "GET /api/v1/plan-acknowledgements/{id}": [["pack_1"], ["pack_2"]],
  "GET /api/v1/webhook-subscriptions": [[{ page: 1, per_page: 25 }], [{ page: 2, per_page: 25 }]],
  "GET /api/v1/webhook-subscriptions/{id}": [["whsub_1"], ["whsub_2"]],
  "GET /api/v1/webhook-subscriptions/{id}/deliveries": [
    ["whsub_1", { page: 1, per_page: 25 }],
    ["whsub_1", { page: 2, per_page: 25 }],
  ],
};

interface Definition {
  endpoint: string;
  from?: Definition;
  make: (...args: unknown[]) => { queryKey: QueryKey; queryFn: (context: unknown) => Promise<unknown> };
}

let requested: string[] = [];

beforeAll(() => {
  vi.stubGlobal("location", new URL("http://console.test/"));
  vi.stubGlobal("fetch", async (input: Request) => {
    requested.push(new URL(input.url).pathname);
    const body = { data: [], meta: { page: 1, per_page: 25, total: 0 }, user: { id: "usr_1" }, csrf_token: "t" };
    return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
  });
});

afterAll(() => {
  vi.unstubAllGlobals();
});

/** Every query module of data/ (data/<resource>/queries.ts), imported so each registers its queries. */
async function everyQuery(): Promise<{ definitions: Definition[]; modules: Record<string, unknown>[] }> {
  const resources = readdirSync(DATA, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const modules: Record<string, unknown>[] = [];
  for (const { name } of resources) {
    if (readdirSync(new URL(`${name}/`, DATA)).includes("queries.ts")) modules.push(await web(`data/${name}/queries`));
  }
  const { queryDefinitions } = await web("data/query");
  return { definitions: [...queryDefinitions], modules };
}

/** "GET /api/v1/deals/{id}" matches "/api/v1/deals/deal_1". */
const matches = (endpoint: string, path: string) =>
  new RegExp(`^${endpoint.split(" ")[1]!.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path);

async function run(definition: Definition, args: unknown[]) {
  const { QueryClient } = await import("@tanstack/react-query");
  const client: QueryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  requested = [];
  const options = definition.make(...args);
  await client.fetchQuery(options as never);
  return { key: options.queryKey, requested: [...requested], client };
}

describe("data/: one query per endpoint, keyed by its resource's factory", () => {
  it("every function a data/*/queries.ts exports that makes query options is a defined query", async () => {
    const { definitions, modules } = await everyQuery();
    for (const module of modules) {
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== "function" || definitions.includes(value as never)) continue;
        // Anything else exported must not be a hand-made queryOptions (it would bypass the registry).
        let made: unknown;
        try {
          made = (value as (...args: unknown[]) => unknown)("x", 1);
        } catch {
          made = undefined;
        }
        expect(made && typeof made === "object" && "queryKey" in made, `${name} makes query options`).toBeFalsy();
      }
    }
  });

  it("each endpoint is read by exactly one defined query, and every defined query has samples here", async () => {
    const { definitions } = await everyQuery();
    const direct = definitions.filter((d) => !d.from).map((d) => d.endpoint);
    expect(new Set(direct).size, `read twice: ${direct.filter((e, i) => direct.indexOf(e) !== i)}`).toBe(direct.length);
    expect([...direct].sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it("each query asks only its endpoint; a derived one asks it only through its source's keys", async () => {
    const { definitions } = await everyQuery();
    for (const definition of definitions) {
      const source = definition.from ?? definition;
      const [args] = SAMPLES[source.endpoint]!;
      const { requested: paths, client, key } = await run(definition, definition.from ? [] : args);
      expect(paths.length, definition.endpoint).toBeGreaterThan(0);
      for (const path of paths) expect(matches(source.endpoint, path), `${definition.endpoint}: ${path}`).toBe(true);
      if (definition.from) {
        // Every request it made is cached under a key the source query makes, none under its own.
        const others = client
          .getQueryCache()
          .getAll()
          .filter((query) => JSON.stringify(query.queryKey) !== JSON.stringify(key));
        expect(others).toHaveLength(paths.length);
        const sourceRoot = source.make(...SAMPLES[source.endpoint]![0]).queryKey.slice(0, 2);
        for (const query of others) expect(query.queryKey.slice(0, 2)).toEqual(sourceRoot);
      }
    }
  });

  it("every key starts with its resource's root from keys.ts, and every factory there is used", async () => {
    const { definitions } = await everyQuery();
    const { keys } = await web("data/keys");
    const roots = new Map<string, string>(
      Object.entries(keys as Record<string, { all: readonly [string] }>).map(([name, factory]) => [
        factory.all[0],
        name,
      ]),
    );
    expect(roots.size, "two factories share a root").toBe(Object.keys(keys).length);
    const used = new Set<string>();
    for (const definition of definitions) {
      const [args] = definition.from ? [[]] : SAMPLES[definition.endpoint]!;
      const key = definition.make(...args).queryKey;
      expect(roots.has(key[0] as string), `${definition.endpoint}: ${JSON.stringify(key)}`).toBe(true);
      used.add(key[0] as string);
      // The factory's parts: the key is made by the factory (all / list / detail), not written by hand.
      const factory = (keys as Record<string, any>)[roots.get(key[0] as string)!];
      const made =
        key.length === 1
          ? factory.all
          : key[1] === "list"
            ? factory.list(key[2])
            : factory.detail(key[2], ...key.slice(3));
      expect(made).toEqual(key);
    }
    expect([...roots.keys()].filter((root) => !used.has(root))).toEqual([]);
  });

  it("different arguments give different keys, the same arguments the same key, across every query", async () => {
    const { definitions } = await everyQuery();
    const seen = new Map<string, string>();
    for (const definition of definitions) {
      if (definition.from) continue;
      const [first, second] = SAMPLES[definition.endpoint]!;
      const keyOf = (args: unknown[]) => JSON.stringify(definition.make(...args).queryKey);
      expect(keyOf(first)).toBe(keyOf(first));
      if (first.length > 0) expect(keyOf(first)).not.toBe(keyOf(second));
      for (const args of [first, second]) {
        const key = keyOf(args);
        const owner = seen.get(key);
        expect(
          owner === undefined || owner === definition.endpoint,
          `${key}: ${owner} and ${definition.endpoint}`,
        ).toBe(true);
        seen.set(key, definition.endpoint);
      }
    }
  });
});
