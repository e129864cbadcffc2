import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { operations } from "../route-case.js";
import { runGeneratedClient } from "./generated-client.js";

/*
 * API.md §12 through the OpenAPI document: real impact answers match its schemas, and a client generated
 * from it narrows a line's explanation_after to a plan computation or to why the line would earn nothing.
 */

let t: TestApp;
let api: Api;
let doc: OpenAPIV3_1.Document;
let planId: string;

/** A flat 10 % plan from 2026-01-01; an approved deal of 50,000 (July) and a pending one of 20,000 (August). */
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  const rep = await createUser(t);
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  planId = plan.id;
  await assign(api, plan.id, rep.id);
  const approved = await createDeal(api, rep.id, { arr_amount: 50000, close_date: "2026-07-10" });
  await approveAsOwner(t, approved.id);
  await createDeal(api, rep.id, { arr_amount: 20000, close_date: "2026-08-10" });
  doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
});
afterAll(async () => t?.close());

function validator() {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: "doc", components: doc.components });
  return (name: string, value: unknown) =>
    expect(ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value), `${name}: ${ajv.errorsText()}`).toBe(true);
}

describe("the plan-change impact in the OpenAPI document", () => {
  it("both bodies (PATCH and impact) may be sent empty: every field is optional", () => {
    for (const [method, path] of [
      ["patch", "/api/v1/comp-plans/{id}"],
      ["post", "/api/v1/comp-plans/{id}/impact"],
    ] as const) {
      const body = doc.paths?.[path]?.[method]?.requestBody as OpenAPIV3_1.RequestBodyObject;
      expect(body.required, `${method} ${path}`).toBe(false);
    }
  });

  it("the input tests built from the document see the shared body's fields", async () => {
    const ops = await operations(t);
    for (const path of ["/api/v1/comp-plans/{id}", "/api/v1/comp-plans/{id}/impact"]) {
      const body = ops.find((op) => op.path === path && op.method !== "GET")?.body;
      expect(Object.keys(body ?? {}), path).toEqual(expect.arrayContaining(["base_rate", "tiers", "retroactive"]));
    }
  });

  it("real answers match PlanImpact: a repricing and a change that leaves lines without a plan", async () => {
    const valid = validator();
    const repriced = ok<{ lines: { data: { explanation_after: unknown }[] } }>(
      await api.post(`/comp-plans/${planId}/impact`, { base_rate: 0.12 }),
    );
    valid("PlanImpact", repriced);
    const removed = ok<{ lines: { data: { explanation_after: unknown }[] } }>(
      await api.post(`/comp-plans/${planId}/impact`, { effective_from: "2026-09-01" }),
    );
    valid("PlanImpact", removed);
    expect(removed.lines.data.map((l) => l.explanation_after)).toContainEqual({
      summary: expect.stringMatching(/^no plan in force: /),
      reason: expect.any(String),
    });
  });

  it("a generated client previews, narrows explanation_after, applies retroactively and reads the link", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const { key } = await t.key("admin");
    const stdout = await runGeneratedClient(doc, CLIENT, [`http://127.0.0.1:${port}`, key, planId]);
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      summary: { users: 1, deals: 2, lines: 2, pending_delta: 400, locked_delta: 1000 },
      rates: ["0.12", "0.12"],
      noPlanReasons: 2,
      retroactive: { count: 1, sum: 1000 },
      linked: [expect.stringMatching(/^com_/)],
      planLines: 1,
    });
  }, 120_000);
});

const CLIENT = `
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type PlanLineAfter = components["schemas"]["PlanExplanation"] | components["schemas"]["NoPlanExplanation"];
const [baseUrl, key, id] = process.argv.slice(2) as [string, string, string];
const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });

async function impact(body: components["schemas"]["UpdateCompPlanInput"]): Promise<components["schemas"]["PlanImpact"]> {
  const { data, error } = await client.POST("/api/v1/comp-plans/{id}/impact", {
    params: { path: { id }, query: { per_page: 10 } },
    body,
  });
  if (!data) throw new Error(JSON.stringify(error));
  // 202 hands a large plan's impact to a job (a Job body); this plan is small enough for the 200 answer.
  if (!("summary" in data)) throw new Error(\`expected the answer, got job \${data.id}\`);
  return data;
}

const out: Record<string, unknown> = {};
const repriced = await impact({ base_rate: 0.12 });
out.summary = repriced.summary;
const rates: string[] = [];
for (const line of repriced.lines.data) {
  // A plan line's explanation_after is its computation (with bands) or why it would earn nothing.
  if (line.kind !== "plan" || !line.explanation_after) continue;
  const after: PlanLineAfter = line.explanation_after;
  if ("bands" in after) rates.push(...after.bands.map((band) => band.rate));
}
out.rates = rates;
let noPlanReasons = 0;
for (const line of (await impact({ effective_from: "2026-09-01" })).lines.data) {
  const after = line.kind === "plan" ? line.explanation_after : null;
  if (after && !("bands" in after)) {
    const reason: string = after.reason;
    if (reason) noPlanReasons += 1;
  }
}
out.noPlanReasons = noPlanReasons;

const applied = await client.PATCH("/api/v1/comp-plans/{id}", {
  params: { path: { id } },
  body: { base_rate: 0.12, retroactive: true },
});
if (!applied.data) throw new Error(JSON.stringify(applied.error));
out.retroactive = applied.data.retroactive_adjustments;

const lines = await client.GET("/api/v1/commissions", { params: { query: { kind: ["adjustment"] } } });
if (!lines.data || typeof lines.data === "string") throw new Error(JSON.stringify(lines.error));
const linked: string[] = [];
for (const line of lines.data.data) {
  if (line.kind === "adjustment" && line.explanation.retroactive) linked.push(line.explanation.retroactive.original_line_id);
}
out.linked = linked;
const planLines = await client.GET("/api/v1/commissions", { params: { query: { kind: ["plan"], status: ["approved"] } } });
if (!planLines.data || typeof planLines.data === "string") throw new Error(JSON.stringify(planLines.error));
out.planLines = planLines.data.data.filter((line) => linked.includes(line.id)).length;
console.log(JSON.stringify(out));
`;
