import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutRunDetail } from "../../src/payout-runs/index.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, toolNames } from "../mcp/client.js";

/** API.md §13's MCP tools: reads for read keys, create/finalize/cancel behind the owner's admin grant. */

let t: TestApp;
let api: Api;
let origin: string;
const clients: Client[] = [];
const READS = ["get_payout_run", "list_payout_runs"];
const WRITES = ["cancel_payout_run", "create_payout_run", "finalize_payout_run"];

async function clientFor(scope: "read" | "admin", grant: "read" | "write" | "admin") {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  api = new Api(t);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

const only = (names: string[], of: string[]) => names.filter((n) => of.includes(n)).sort();

describe("payout-run tools", () => {
  it("a read key sees the reads; an admin key sees the writes only once the owner granted admin", async () => {
    expect(only(await toolNames(await clientFor("read", "read")), [...READS, ...WRITES])).toEqual(READS);
    expect(only(await toolNames(await clientFor("admin", "write")), WRITES)).toEqual([]);
    expect(only(await toolNames(await clientFor("admin", "admin")), WRITES)).toEqual(WRITES);
    const refused = errorIn(
      await call(await clientFor("admin", "write"), "create_payout_run", {
        through: "2020-01-31",
        pay_date: "2020-02-01",
      }),
    );
    expect(refused.code).toBe("forbidden");
  });

  it("create, get, list and finalize mirror REST; cancel of a finalized run is refused", async () => {
    const admin = await clientFor("admin", "admin");
    const reader = await clientFor("read", "read");
    const created = await call(admin, "create_payout_run", {
      through: "2020-01-31",
      pay_date: "2020-02-01",
      max_recovery_percent: 33.3333,
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const run = created.structuredContent as PayoutRunDetail;
    expect([run.status, run.max_recovery_percent]).toEqual(["draft", 33.3333]);
    const got = await call(reader, "get_payout_run", { id: run.id, per_page: 5 });
    expect(got.structuredContent).toEqual(ok<PayoutRunDetail>(await api.get(`/payout-runs/${run.id}?per_page=5`)));
    const listed = await call(reader, "list_payout_runs", { status: "draft" });
    expect((listed.structuredContent as { data: { id: string }[] }).data.map((r) => r.id)).toContain(run.id);
    const finalized = await call(admin, "finalize_payout_run", { id: run.id });
    expect((finalized.structuredContent as PayoutRunDetail).status).toBe("finalized");
    expect(errorIn(await call(admin, "cancel_payout_run", { id: run.id })).code).toBe("invalid_transition");
  });
});
