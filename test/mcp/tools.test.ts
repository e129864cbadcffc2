import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, Scope } from "../../src/context.js";
import { toAppError } from "../../src/db/errors.js";
import { missingFor } from "../../src/mcp/gate.js";
import { READS } from "../../src/mcp/tool.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { createUser, unique, uniqueEmail, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, namesUpTo, toolNames } from "./client.js";

let t: TestApp;
let origin: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

async function clientFor(scope: Scope, grant: Scope = "read") {
  const key = await mcpKey(t, scope, grant);
  const client = await connect(origin, key.key);
  clients.push(client);
  return { client, key };
}

function countUsers() {
  return t.db.db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

describe("tools/list per scope × owner grant", () => {
  it.each([
    ["read", "read", "read"],
    ["write", "read", "read"],
    ["write", "write", "write"],
    ["write", "admin", "write"],
    ["admin", "read", "read"],
    ["admin", "write", "write"],
    ["admin", "admin", "admin"],
  ] as const)("a %s key with mcp_access %s sees the %s tools", async (scope, grant, level) => {
    const { client } = await clientFor(scope, grant);
    expect(await toolNames(client)).toEqual(namesUpTo(level));
  });

  it("the read and write tools of API.md §9", () => {
    const reads = ["list_deals", "get_deal", "list_users", "get_user", "list_comp_plans", "get_comp_plan"];
    const moreReads = ["list_commissions", "get_commission", "list_spiffs", "get_spiff", "get_statement"];
    // #26: the records other tools name (resolve_dispute's id, a recalculation_job_id), history, assignments.
    const recordReads = ["list_disputes", "get_dispute", "get_job", "get_deal_history", "list_plan_assignments"];
    const writes = ["create_deal", "update_deal", "upsert_deal", "create_user", "update_user", "open_dispute"];
    // #28: a team's statements in one call.
    // §13: payout runs.
    const runReads = ["list_payout_runs", "get_payout_run"];
    // §14: what a cancel or refund would claw back.
    const allReads = [
      ...reads,
      ...moreReads,
      ...recordReads,
      ...runReads,
      "preview_commission",
      "list_team_statements",
      "preview_clawbacks",
      // §16: who reported to whom over time.
      "list_reporting_lines",
      // §15: exchange rates.
      "list_exchange_rates",
      // §18: draws.
      "list_draws",
      "get_draw",
      // §17: commission-cost accounting.
      "get_accounting_roll_forward",
      // #34: who has (not) acknowledged their plan.
      "list_plan_acknowledgements",
      "get_plan_acknowledgement",
    ];
    expect(namesUpTo("read")).toEqual(allReads.sort());
    expect(namesUpTo("write")).toEqual([...allReads, ...writes].sort());
  });

  it("every tool has a title, a description, both schemas and all four annotations", async () => {
    const { client } = await clientFor("admin", "admin");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(TOOLS.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      const a = tool.annotations!;
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof a[hint], `${tool.name}.${hint}`).toBe("boolean");
      }
      expect(a.openWorldHint).toBe(false);
      const row = TOOLS.find((r) => r.name === tool.name)!;
      // Reads are read-only, and so are two admin tools: the plan-change preview (API.md §12) and the
      // email delivery log (docs/notifications.md).
      const adminReads = ["preview_plan_change", "list_notification_deliveries"];
      expect(a.readOnlyHint).toBe(row.scope === "read" || adminReads.includes(row.name));
    }
  });

  it("input schemas are the REST ones: strict, with page and per_page on list tools", async () => {
    const { client } = await clientFor("write", "write");
    const { tools } = await client.listTools();
    const list = tools.find((tool) => tool.name === "list_users")!;
    expect(list.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(list.inputSchema.properties!)).toEqual(
      expect.arrayContaining(["page", "per_page", "role", "active", "manager_id", "email"]),
    );
    const update = tools.find((tool) => tool.name === "update_user")!;
    expect(update.inputSchema.required).toEqual(["id"]);
    expect(Object.keys(update.inputSchema.properties!)).toEqual(expect.arrayContaining(["id", "name", "email"]));
  });
});

describe("calls", () => {
  it("list_users returns exactly the GET /users body, as text and as structuredContent", async () => {
    const { client, key } = await clientFor("read");
    const manager = await createUser(t, { role: "manager" });
    await createUser(t, { role: "manager", manager_id: manager.id });
    await createUser(t, { role: "manager" });
    const result = await call(client, "list_users", { role: "manager", per_page: 2, page: 1 });
    const rest = await t.app.inject({ url: "/api/v1/users?role=manager&per_page=2&page=1", headers: bearer(key.key) });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.json());
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    expect((result.structuredContent as { meta: { total: number } }).meta.total).toBeGreaterThanOrEqual(3);
  });

  it("list_users takes the REST filters and defaults", async () => {
    const { client } = await clientFor("read");
    const user = await createUser(t, { active: false });
    const result = await call(client, "list_users", { email: user.email.toUpperCase(), active: "false" });
    expect(result.structuredContent).toEqual({ data: [user], meta: { page: 1, per_page: 25, total: 1 } });
  });

  it("list_team_statements returns exactly the GET /users/statements body (#28)", async () => {
    const { client, key } = await clientFor("read");
    await createUser(t, { role: "manager" });
    const args = { period: "2026-Q3", role: "manager", per_page: 2, page: 1 };
    const result = await call(client, "list_team_statements", args);
    const rest = await t.app.inject({
      url: "/api/v1/users/statements?period=2026-Q3&role=manager&per_page=2&page=1",
      headers: bearer(key.key),
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.json());
    expect((result.structuredContent as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("get_user returns the user", async () => {
    const { client } = await clientFor("read");
    const user = await createUser(t);
    expect((await call(client, "get_user", { id: user.id })).structuredContent).toEqual(user);
  });

  it("list_reporting_lines returns exactly the GET /users/{id}/reporting-lines body (API.md §16)", async () => {
    const { client, key } = await clientFor("read");
    const boss = await createUser(t);
    const user = await createUser(t, { manager_id: boss.id, manager_effective_from: "2026-01-01" });
    const result = await call(client, "list_reporting_lines", { id: user.id });
    const rest = await t.app.inject({
      method: "GET",
      url: `/api/v1/users/${user.id}/reporting-lines`,
      headers: bearer(key.key),
    });
    expect(result.structuredContent).toEqual(rest.json());
    expect(result.structuredContent).toEqual({
      data: [{ manager_id: boss.id, effective_from: "2026-01-01", effective_to: null }],
    });
    expect(errorIn(await call(client, "list_reporting_lines", { id: unknownId("usr") })).code).toBe("not_found");
  });

  it("create_user and update_user write through the services, audited with the key as actor", async () => {
    const { client, key } = await clientFor("write", "write");
    const email = uniqueEmail("mcp");
    const created = await call(client, "create_user", { name: "Ada Lovelace", email });
    expect(created.isError).toBeFalsy();
    const user = created.structuredContent as { id: string; role: string; active: boolean };
    expect(user).toMatchObject({ email, role: "rep", active: true });
    const rest = await t.app.inject({ url: `/api/v1/users/${user.id}`, headers: bearer(key.key) });
    expect(rest.json()).toEqual(user);

    const updated = await call(client, "update_user", { id: user.id, name: "Ada King", manager_id: null });
    expect(updated.structuredContent).toMatchObject({ id: user.id, name: "Ada King", role: "rep", email });

    const rows = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("resource_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.action, r.actor_type, r.actor_id, r.actor_name])).toEqual([
      ["user.create", "api_key", key.id, key.name],
      ["user.update", "api_key", key.id, key.name],
    ]);
    expect(rows.every((r) => /^req_/.test(r.request_id ?? ""))).toBe(true);
  });
});

describe("errors are error results carrying the contract's code and message", () => {
  it("unknown id → not_found", async () => {
    const { client } = await clientFor("read");
    const id = unknownId("usr");
    const error = errorIn(await call(client, "get_user", { id }));
    expect(error).toMatchObject({ code: "not_found", message: `User ${id} not found` });
    expect(error.request_id).toMatch(/^req_/);
  });

  it("invalid or unknown arguments → validation_error naming each, and nothing is created", async () => {
    const { client } = await clientFor("write", "write");
    const before = await countUsers();
    const error = errorIn(await call(client, "create_user", { name: "X", email: "not-an-email", id: "usr_1" }));
    expect(error.code).toBe("validation_error");
    expect(error.details).toEqual(
      expect.arrayContaining([
        { param: "email", message: "must be a valid email address" },
        { param: "id", message: "is not a recognized argument" },
      ]),
    );
    expect(error.message).toContain("email must be a valid email address");
    const paging = errorIn(await call(client, "list_users", { per_page: 101 }));
    expect(paging.details).toEqual([{ param: "per_page", message: "must be at most 100" }]);
    expect(await countUsers()).toBe(before);
  });

  it("a rule the service checks → its validation_error; a taken email → conflict", async () => {
    const { client } = await clientFor("write", "write");
    const taken = await createUser(t);
    const manager = unknownId("usr");
    const invalid = errorIn(
      await call(client, "create_user", { name: "Y", email: uniqueEmail(), manager_id: manager }),
    );
    expect(invalid).toMatchObject({
      code: "validation_error",
      details: [{ param: "manager_id", message: `user ${manager} does not exist` }],
    });
    const conflict = errorIn(await call(client, "create_user", { name: "Z", email: taken.email }));
    expect(conflict).toMatchObject({ code: "conflict", message: `A user with email ${taken.email} already exists` });
  });
});

describe("gate: a tool the key may not use is refused by name, before validation, changing nothing", () => {
  it("a read key calling create_user is told it needs the write scope", async () => {
    const { client } = await clientFor("read");
    const before = await countUsers();
    const error = errorIn(await call(client, "create_user", { name: unique("N"), email: uniqueEmail() }));
    expect(error.code).toBe("forbidden");
    expect(error.message).toMatch(/^create_user needs the write scope; this key has read\./);
    expect(await countUsers()).toBe(before);
  });

  it("a write key without the owner's grant is told the exact command, even with invalid arguments", async () => {
    const { client, key } = await clientFor("write", "read");
    const user = await createUser(t);
    const error = errorIn(await call(client, "update_user", { id: user.id, name: "Changed", bogus: 1 }));
    expect(error).toMatchObject({
      code: "forbidden",
      message: `update_user needs mcp_access write, granted by the owner with \`cts keys mcp-access ${key.id} write\`; this key has read`,
    });
    const rest = await t.app.inject({ url: `/api/v1/users/${user.id}`, headers: bearer(key.key) });
    expect(rest.json()).toEqual(user);
  });

  it("names a missing admin scope and a missing admin grant", () => {
    const adminTool = TOOLS.find((tool) => tool.name === "approve_deal")!;
    const writer: Actor = { type: "api_key", keyId: "key_w", name: "w", scope: "write", mcpAccess: "admin" };
    const admin: Actor = { type: "api_key", keyId: "key_a", name: "a", scope: "admin", mcpAccess: "write" };
    expect(missingFor(adminTool, writer)).toMatch(/^approve_deal needs the admin scope; this key has write\./);
    expect(missingFor(adminTool, admin)).toBe(
      "approve_deal needs mcp_access admin, granted by the owner with `cts keys mcp-access key_a admin`; this key has write",
    );
    expect(missingFor(adminTool, { ...admin, mcpAccess: "admin" })).toBeUndefined();
    expect(missingFor(adminTool, { type: "owner" })).toBeUndefined();
  });

  it("a bug becomes internal_error quoting the request id; the details go to the log only", () => {
    const heard: unknown[] = [];
    const err = toAppError(new Error("relation secret_table does not exist"), "req_1", (e) => heard.push(e));
    expect([err.code, err.message]).toEqual([
      "internal_error",
      "Internal error; quote request id req_1 when reporting it",
    ]);
    expect(heard).toHaveLength(1);
  });

  it("unknown tool names get a not_found error result", async () => {
    const { client } = await clientFor("read");
    const error = errorIn(await call(client, "drop_everything"));
    expect([error.code, error.message]).toEqual(["not_found", "Tool drop_everything not found"]);
  });

  it("read tools carry the READS annotations", () => {
    for (const tool of TOOLS.filter((row) => row.scope === "read")) expect(tool.annotations).toEqual(READS);
  });
});
