import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draw } from "../../src/draws/index.js";
import { createUser } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, toolNames } from "../mcp/client.js";

/** API.md §18's MCP tools: reads for read keys, create/end/forgive behind the owner's admin grant. */

let t: TestApp;
let api: Api;
let origin: string;
const clients: Client[] = [];
const READS = ["get_draw", "list_draws"];
const WRITES = ["create_draw", "end_draw", "forgive_draw"];

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

describe("draw tools", () => {
  it("a read key sees the reads; an admin key sees the writes only once the owner granted admin", async () => {
    expect(only(await toolNames(await clientFor("read", "read")), [...READS, ...WRITES])).toEqual(READS);
    expect(only(await toolNames(await clientFor("admin", "write")), WRITES)).toEqual([]);
    expect(only(await toolNames(await clientFor("admin", "admin")), WRITES)).toEqual(WRITES);
  });

  it("create, get, list, forgive and end mirror REST", async () => {
    const admin = await clientFor("admin", "admin");
    const reader = await clientFor("read", "read");
    const user = await createUser(t);
    const created = await call(admin, "create_draw", {
      user_id: user.id,
      kind: "recoverable",
      amount: 1000,
      period: "quarter",
      starts_on: "2020-01-01",
      ends_on: "2020-12-31",
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const draw = created.structuredContent as Draw;
    expect([draw.currency, draw.periods.length, draw.balance]).toEqual(["USD", 4, 0]);
    const got = await call(reader, "get_draw", { id: draw.id });
    expect(got.structuredContent).toEqual(ok<Draw>(await api.get(`/draws/${draw.id}`)));
    const listed = await call(reader, "list_draws", { user_id: user.id });
    expect((listed.structuredContent as { data: { id: string }[] }).data.map((d) => d.id)).toEqual([draw.id]);
    expect(errorIn(await call(admin, "forgive_draw", { id: draw.id, reason: "x" })).code).toBe("validation_error");
    ok(await api.post("/payout-runs", { through: "2020-03-31", pay_date: "2020-04-05", user_ids: [user.id] }), 201);
    const forgiven = await call(admin, "forgive_draw", { id: draw.id, amount: 400, reason: "Welcome" });
    expect((forgiven.structuredContent as Draw).balance).toBe(600);
    const ended = await call(admin, "end_draw", { id: draw.id, effective_date: "2020-06-30" });
    expect((ended.structuredContent as Draw).ends_on).toBe("2020-06-30");
    const overlap = await call(admin, "create_draw", {
      user_id: user.id,
      kind: "non_recoverable",
      amount: 1,
      period: "month",
      starts_on: "2020-06-01",
      ends_on: "2020-06-30",
    });
    expect(errorIn(overlap).code).toBe("conflict");
  });
});
