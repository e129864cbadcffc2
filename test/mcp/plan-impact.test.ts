import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanImpact } from "../../src/comp-plans/index.js";
import { setImpactInlineLimit } from "../../src/comp-plans/index.js";
import type { Scope } from "../../src/context.js";
import { READS } from "../../src/mcp/tool.js";
import { createUser, unknownId } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, toolNames } from "./client.js";

const TOOL = "preview_plan_change";
/** Tables a plan change (or its retroactive apply) writes to. */
const WRITTEN = [
  "comp_plans",
  "comp_plan_versions",
  "commission_lines",
  "deals",
  "audit_events",
  "events",
  "jobs",
  "webhook_deliveries",
] as const;

let t: TestApp;
let api: Api;
let origin: string;
let planId: string;
let admin: Client;
const clients: Client[] = [];

async function clientFor(scope: Scope, grant: Scope) {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
}

/** Three reps on a flat 10 % plan, eight deals each (distinct amounts), every other one approved: 24 lines. */
beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  api = new Api(t);
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  planId = plan.id;
  for (let u = 0; u < 3; u += 1) {
    const rep = await createUser(t, { name: `Rep ${u}` });
    await assign(api, plan.id, rep.id);
    for (let i = 0; i < 8; i += 1) {
      const deal = await createDeal(api, rep.id, { arr_amount: 10000 + 1000 * i + 100 * u, close_date: "2026-07-15" });
      if (i % 2 === 0) await approveAsOwner(t, deal.id);
    }
  }
  admin = await clientFor("admin", "admin");
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

/** Row counts of the written tables, the plan row and every line's amount and status. */
async function snapshot() {
  const db = t.db.db;
  const counts: Record<string, number> = {};
  for (const table of WRITTEN) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const plan = await db.selectFrom("comp_plans").selectAll().where("id", "=", planId).executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom("commission_lines")
    .select(["id", "amount", "status", "locked", "explanation"])
    .orderBy("id")
    .execute();
  return { counts, plan, lines };
}

function restImpact(body: Record<string, unknown>) {
  return api.post(`/comp-plans/${planId}/impact?per_page=20`, body);
}

describe("preview_plan_change (API.md §12)", () => {
  it("is an admin tool with the read-only hint, listed only for an admin key granted admin", async () => {
    const listed = (await admin.listTools()).tools.find((tool) => tool.name === TOOL);
    expect(listed?.annotations).toEqual({ title: "Preview a comp plan change", ...READS });
    expect(listed?.annotations?.readOnlyHint).toBe(true);
    expect(listed?.inputSchema.required).toEqual(["id"]);
    expect(listed?.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(listed?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["id", "base_rate", "tiers", "quota", "retroactive"]),
    );
    expect(await toolNames(await clientFor("admin", "write"))).not.toContain(TOOL);
    expect(await toolNames(await clientFor("write", "admin"))).not.toContain(TOOL);
  });

  it("answers what POST /comp-plans/{id}/impact?per_page=20 answers for the same body: summary, users, first 20 lines", async () => {
    const body = { base_rate: 0.12 };
    const result = await call(admin, TOOL, { id: planId, ...body });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const impact = result.structuredContent as PlanImpact;
    const rest = ok<PlanImpact>(await restImpact(body));
    expect(impact).toEqual(rest);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(impact) }]);
    expect(impact.summary).toEqual(ok<PlanImpact>(await api.post(`/comp-plans/${planId}/impact`, body)).summary);
    expect(impact.summary).toMatchObject({ users: 3, deals: 24, lines: 24 });
    expect(impact.users).toHaveLength(3);
    expect(impact.lines.data).toHaveLength(20);
    expect(impact.lines.meta).toEqual({ page: 1, per_page: 20, total: 24 });
    // Largest |delta| first: the last 4 of the 24 are the smallest deals.
    const deltas = impact.lines.data.map((line) => Math.abs(line.delta));
    expect(deltas).toEqual([...deltas].sort((a, b) => b - a));
  });

  it("a body with several terms and retroactive: true still equals REST and writes nothing", async () => {
    const body = { base_rate: 0.08, cap_per_period: 5000, retroactive: true };
    const before = await snapshot();
    const result = await call(admin, TOOL, { id: planId, ...body });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(result.structuredContent).toEqual(ok<PlanImpact>(await restImpact(body)));
    expect((result.structuredContent as PlanImpact).summary.locked_delta).toBeLessThan(0);
  });

  it("keys without admin MCP access are refused as other admin tools are, changing nothing", async () => {
    const [adminGrantedWrite, writeKey] = [await clientFor("admin", "write"), await clientFor("write", "admin")];
    const before = await snapshot();
    const limited = errorIn(await call(adminGrantedWrite, TOOL, { id: planId, base_rate: 0.2 }));
    expect(limited.code).toBe("forbidden");
    expect(limited.message).toMatch(/^preview_plan_change needs mcp_access admin, granted by the owner with `cts keys/);
    const writer = errorIn(await call(writeKey, TOOL, { id: planId, base_rate: 0.2 }));
    expect(writer.code).toBe("forbidden");
    expect(writer.message).toMatch(/^preview_plan_change needs the admin scope; this key has write\./);
    expect(await snapshot()).toEqual(before);
  });

  it("invalid arguments → validation_error naming each; a rule the service checks and an unknown plan too", async () => {
    const before = await snapshot();
    const invalid = errorIn(await call(admin, TOOL, { id: planId, base_rate: "high", bogus: 1 }));
    expect(invalid.code).toBe("validation_error");
    expect(invalid.details?.map((d) => d.param).sort()).toEqual(["base_rate", "bogus"]);
    expect(invalid.details).toContainEqual({ param: "bogus", message: "is not a recognized argument" });
    expect(errorIn(await call(admin, TOOL, { base_rate: 0.2 })).details).toEqual([
      { param: "id", message: expect.any(String) },
    ]);

    const tiers = { tiers: [{ from_attainment: 0.5, rate: 0.1 }] };
    const rule = errorIn(await call(admin, TOOL, { id: planId, ...tiers }));
    const restRule = (await restImpact(tiers)).json() as { error: { code: string; details: unknown } };
    expect(restRule.error.code).toBe("validation_error");
    expect([rule.code, rule.details]).toEqual([restRule.error.code, restRule.error.details]);

    const missing = unknownId("plan");
    expect(errorIn(await call(admin, TOOL, { id: missing, base_rate: 0.2 }))).toMatchObject({
      code: "not_found",
      message: `Comp plan ${missing} not found`,
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe("preview_plan_change on a plan past the inline limit", () => {
  it("is refused with conflict naming the REST route (no job queued): an MCP call has no job to wait on", async () => {
    setImpactInlineLimit(10);
    try {
      const before = await snapshot();
      const refused = errorIn(await call(admin, TOOL, { id: planId, base_rate: 0.2 }));
      expect(refused.code).toBe("conflict");
      expect(refused.message).toBe(
        `This change's impact covers 24 lines, more than one call computes (10): ` +
          `POST /api/v1/comp-plans/${planId}/impact answers it with a job`,
      );
      expect(await snapshot()).toEqual(before);
    } finally {
      setImpactInlineLimit(20_000);
    }
  });
});
