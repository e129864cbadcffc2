import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { listen, mcpKey, namesUpTo, post } from "./client.js";

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
});

afterAll(async () => {
  await t?.close();
});

/** tools/list as a key of `level` granted `level` sees it: the raw HTTP body and the tools in it. */
async function listFor(level: Scope): Promise<{ bytes: number; tools: Tool[] }> {
  const key = await mcpKey(t, level, level);
  const res = await post(origin, { jsonrpc: "2.0", id: 1, method: "tools/list" }, bearer(key.key));
  const text = await res.text();
  return { bytes: Buffer.byteLength(text), tools: (JSON.parse(text) as { result: { tools: Tool[] } }).result.tools };
}

// The portability rules of the MCP Inspector's schema check (`--strict`), written out independently.
const CONSTRAINING = new Set(
  (
    "type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern " +
    "format maxItems minItems uniqueItems maxProperties minProperties required allOf anyOf oneOf not items " +
    "prefixItems contains properties patternProperties additionalProperties propertyNames $ref"
  ).split(" "),
);
const BOOLEAN_ALLOWED = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
]);
const SCHEMA_VALUED = ["items", "not", "contains", "additionalProperties", "propertyNames", "if", "then", "else"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Every place in `node` that a strict client would refuse or the Inspector warns about. */
function unportable(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node === "boolean") return keyword && BOOLEAN_ALLOWED.has(keyword) ? [] : [`${path}: bare ${node}`];
  if (typeof node !== "object" || node === null) return [];
  const schema = node as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(schema.type)) found.push(`${path}: type is a list ${JSON.stringify(schema.type)}`);
  if (!Object.keys(schema).some((k) => CONSTRAINING.has(k)) && keyword !== "not")
    found.push(`${path}: accepts anything`);
  if ("$ref" in schema) found.push(`${path}: $ref ${String(schema.$ref)} (clients may not resolve it)`);
  for (const key of SCHEMA_VALUED) if (key in schema) found.push(...unportable(schema[key], `${path}.${key}`, key));
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, s] of list.entries()) found.push(...unportable(s, `${path}.${key}[${i}]`, key));
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (typeof map !== "object" || map === null) continue;
    for (const [name, s] of Object.entries(map)) found.push(...unportable(s, `${path}.${key}.${name}`, key));
  }
  return found;
}

describe("#26 tools/list is small and portable", () => {
  // 40 KB until §13's five payout-run tools (about 5 KB, a user's payroll_id with them) and §14's cancel_deal (its
  // output is the REST DealCancelled), refund_deal and preview_clawbacks (about 6.5 KB): 52.2 KB with them all.
  // §16: list_reporting_lines, and a plan's kind and override levels in every plan tool's input and output: 54.5 KB.
  // §15: list_exchange_rates and put_exchange_rates (about 2 KB), fx_max_age_days in plan and SPIFF tools: 56.8 KB;
  // list_deals' fx_missing filter (0.4 KB); a deal's per-currency totals, a statement's currency and
  // totals_by_currency, an adjustment's currency: 58.7 KB. §18: list_draws, get_draw, create_draw, end_draw and
  // forgive_draw (the Draw schema in each), a line's draw_id and the draw explanation in every line output, a
  // statement's draw_lines: 63.8 KB. §17: get_accounting_roll_forward: 64.7 KB. #34: list_plan_acknowledgements,
  // get_plan_acknowledgement and list_notification_deliveries (3.1 KB): 67.8 KB.
  it("an admin's tools/list, every tool, is at most 67.9 KB", async () => {
    const { bytes, tools } = await listFor("admin");
    expect(tools.map((tool) => tool.name).sort()).toEqual(namesUpTo("admin"));
    expect(tools).toHaveLength(TOOLS.length);
    expect(bytes).toBeLessThanOrEqual(67_900);
  });

  it("the rules catch what they should", () => {
    expect(unportable({ type: ["string", "null"] }, "s")).toEqual(['s: type is a list ["string","null"]']);
    expect(unportable({ type: "object", properties: { a: {} } }, "s")).toEqual(["s.properties.a: accepts anything"]);
    expect(unportable({ anyOf: [{ type: "string" }, true] }, "s")).toEqual(["s.anyOf[1]: bare true"]);
    expect(unportable({ type: "object", additionalProperties: false }, "s")).toEqual([]);
    expect(unportable({ $ref: "#/definitions/A" }, "s")).toEqual([
      "s: $ref #/definitions/A (clients may not resolve it)",
    ]);
  });

  it.each(["read", "write", "admin"] as const)(
    "every %s tool's inputSchema and outputSchema are portable",
    async (level) => {
      const { tools } = await listFor(level);
      const found = tools.flatMap((tool) => [
        ...unportable(tool.inputSchema, `${tool.name}.inputSchema`),
        ...unportable(tool.outputSchema, `${tool.name}.outputSchema`),
      ]);
      expect(found).toEqual([]);
      for (const tool of tools) {
        expect([tool.inputSchema.type, tool.outputSchema?.type], tool.name).toEqual(["object", "object"]);
        expect(JSON.stringify(tool), tool.name).not.toContain("$schema");
      }
    },
  );

  it("an output schema names the fields the REST body always has (a list's, of its items)", async () => {
    const { tools } = await listFor("admin");
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("get_user")!.outputSchema).toEqual({
      type: "object",
      required: [
        ...["id", "external_id", "name", "email", "role", "manager_id", "active", "payroll_id"],
        ...["created_at", "updated_at"],
      ],
    });
    expect(byName.get("list_disputes")!.outputSchema).toMatchObject({
      required: ["data", "meta"],
      properties: {
        data: {
          type: "array",
          items: { type: "object", required: expect.arrayContaining(["id", "deal_id", "status"]) },
        },
      },
    });
  });

  it('every argument REST takes as "true"/"false" is listed, and accepted, as a JSON boolean too', async () => {
    const { tools } = await listFor("admin");
    const words = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([, property]) => JSON.stringify(property).includes('"enum":["true","false"]'))
        .map(([name, property]) => [tool.name, name, property]),
    );
    expect(words.map(([tool, name]) => `${tool}.${name}`)).toEqual([
      "list_deals.fx_missing",
      "list_users.active",
      "list_team_statements.active",
      "list_spiffs.active",
    ]);
    for (const [, , property] of words) {
      expect(property).toEqual({ anyOf: [{ type: "boolean" }, { type: "string", enum: ["true", "false"] }] });
    }
  });
});
