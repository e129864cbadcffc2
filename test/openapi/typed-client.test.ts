import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/schema.js";
import type { Page } from "../../src/http/pagination.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { runGeneratedClient } from "./generated-client.js";

let t: TestApp;
let api: Api;
let doc: OpenAPIV3_1.Document;

beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
  const { user } = await repOnPlan(api);
  ok(
    await api.post("/spiffs", {
      name: "Q3 push",
      starts_on: "2026-07-01",
      ends_on: "2026-09-30",
      payout: { type: "flat", amount: 500 },
    }),
    201,
  );
  const deal = await createDeal(api, user.id);
  ok(
    await api.post("/commissions/adjustments", {
      deal_id: deal.id,
      user_id: user.id,
      amount: -25.5,
      reason: "clawback",
    }),
    201,
  );
  doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
});
afterAll(async () => t?.close());

describe("#13.32 explanation is typed per line kind", () => {
  it("real lines of every kind match the document's Commission schema and keep every stored field", async () => {
    const lines = ok<Page<Commission>>(await api.get("/commissions?per_page=100")).data as {
      id: string;
      kind: string;
      explanation: unknown;
    }[];
    expect(lines.map((l) => l.kind).sort()).toEqual(["adjustment", "plan", "spiff"]);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: "doc", components: doc.components });
    const stored = await t.db.db.selectFrom("commission_lines").select(["id", "explanation"]).execute();
    for (const line of lines) {
      expect(
        ajv.validate({ $ref: "doc#/components/schemas/Commission" }, line),
        `${line.kind}: ${ajv.errorsText()}`,
      ).toBe(true);
      expect(line.explanation).toEqual(stored.find((row) => row.id === line.id)!.explanation);
    }
    const schemas = doc.components?.schemas ?? {};
    expect((schemas.PlanExplanation!.properties!.bands as OpenAPIV3_1.SchemaObject).type).toBe("array");
    expect(schemas.Commission?.discriminator?.propertyName).toBe("kind");
  });
});

describe("#13.30 #13.32 Done when: a typed client generated from the served document", () => {
  it("type-checks and runs a script that reads explanation.bands and the CSV as text", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const { key } = await t.key("read");
    const stdout = await runGeneratedClient(doc, CLIENT, [`http://127.0.0.1:${port}`, key]);
    expect(JSON.parse(stdout)).toEqual({
      rates: ["0.1"],
      spiff: "Q3 push",
      reason: "clawback",
      summaries: 3,
      csvHeader: "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary",
    });
  }, 120_000);
});

const CLIENT = `
import createClient from "openapi-fetch";
import type { paths } from "./api.js";

const [baseUrl, key] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });

const { data, error } = await client.GET("/api/v1/commissions", { params: { query: { per_page: 100 } } });
// The 200 is JSON or CSV (by Accept): this call asked for JSON.
if (!data || typeof data === "string") throw new Error(JSON.stringify(error));
const out: Record<string, unknown> = {};
let summaries = 0;
for (const line of data.data) {
  const summary: string = line.explanation.summary;
  if (summary) summaries += 1;
  if (line.kind === "plan") out.rates = line.explanation.bands.map((band) => band.rate);
  if (line.kind === "spiff") out.spiff = line.explanation.spiff_name;
  if (line.kind === "adjustment") out.reason = line.explanation.reason;
}
out.summaries = summaries;
const csv = await client.GET("/api/v1/commissions", { headers: { Accept: "text/csv" }, parseAs: "text" });
const text: string | undefined = csv.data;
out.csvHeader = text?.split("\\r\\n")[0];
console.log(JSON.stringify(out));
`;
