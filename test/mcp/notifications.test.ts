import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import { createUser } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { newPlanAcknowledgement } from "../notifications/route-cases.js";
import { call, connect, errorIn, listen, mcpKey, toolNames } from "./client.js";

// docs/notifications.md: MCP read list_plan_acknowledgements and get_plan_acknowledgement, admin
// list_notification_deliveries; each answers the REST body of the route it mirrors.

let t: TestApp;
let origin: string;
const clients: Client[] = [];
beforeAll(async () => {
  t = await createTestApp({ mailOrigin: "https://cts.example.com" });
  origin = await listen(t);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t.close();
});

async function clientFor(scope: Scope, grant: Scope) {
  const key = await mcpKey(t, scope, grant);
  const client = await connect(origin, key.key);
  clients.push(client);
  return { client, key: key.key };
}

const rest = async (key: string, url: string) =>
  ok(await t.app.inject({ method: "GET", url: `/api/v1${url}`, headers: bearer(key) }));

describe("plan acknowledgement tools", () => {
  it("list_plan_acknowledgements answers GET /plan-acknowledgements, filters included", async () => {
    const { client, key } = await clientFor("read", "read");
    const id = await newPlanAcknowledgement(t);
    await newPlanAcknowledgement(t);
    const listed = await call(client, "list_plan_acknowledgements", { status: "pending", per_page: 1 });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual(await rest(key, "/plan-acknowledgements?status=pending&per_page=1"));
    const detail = await rest(key, `/plan-acknowledgements/${id}`);
    const mine = await call(client, "list_plan_acknowledgements", {
      user_id: (detail as { user_id: string }).user_id,
    });
    expect((mine.structuredContent as { data: { id: string; status: string }[] }).data).toEqual([
      expect.objectContaining({ id, status: "pending" }),
    ]);
    const bad = errorIn(await call(client, "list_plan_acknowledgements", { status: "maybe" }));
    expect(bad.code).toBe("validation_error");
    expect(bad.details?.map((d) => d.param)).toEqual(["status"]);
  });

  it("get_plan_acknowledgement answers GET /plan-acknowledgements/{id}, the document included", async () => {
    const { client, key } = await clientFor("read", "read");
    const id = await newPlanAcknowledgement(t);
    const got = await call(client, "get_plan_acknowledgement", { id });
    expect(got.structuredContent).toEqual(await rest(key, `/plan-acknowledgements/${id}`));
    expect((got.structuredContent as { document: string }).document).toMatch(/^COMMISSION PLAN: /);
    expect(errorIn(await call(client, "get_plan_acknowledgement", { id: "pack_unknown" })).code).toBe("not_found");
  });
});

describe("list_notification_deliveries", () => {
  it("is an admin tool: listed for admin keys granted admin, refused to the others", async () => {
    const reader = await clientFor("read", "read");
    expect(await toolNames(reader.client)).toEqual(
      expect.arrayContaining(["list_plan_acknowledgements", "get_plan_acknowledgement"]),
    );
    expect(await toolNames(reader.client)).not.toContain("list_notification_deliveries");
    const refused = await call(reader.client, "list_notification_deliveries", {});
    expect(refused.isError).toBe(true);
    expect(errorIn(refused).message).toMatch(
      /^list_notification_deliveries needs the admin scope; this key has read\./,
    );
    const ungranted = await clientFor("admin", "write");
    expect(errorIn(await call(ungranted.client, "list_notification_deliveries", {})).message).toMatch(
      /^list_notification_deliveries needs mcp_access admin/,
    );
  });

  it("answers GET /notifications/deliveries: an invitation queued is in the log, never its token", async () => {
    const { client, key } = await clientFor("admin", "admin");
    const api = new Api(t);
    const user = await createUser(t);
    ok(await api.post(`/users/${user.id}/invitations`), 201);
    const listed = await call(client, "list_notification_deliveries", { kind: "invitation", user_id: user.id });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual(
      await rest(key, `/notifications/deliveries?kind=invitation&user_id=${user.id}`),
    );
    expect((listed.structuredContent as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ kind: "invitation", user_id: user.id, to: user.email, status: "pending" }),
    ]);
    expect(JSON.stringify(listed.content)).not.toMatch(/invite#/);
  });
});
