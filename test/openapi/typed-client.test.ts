import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { Page } from "../../src/http/pagination.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { runGeneratedClient, runOrvalClient } from "./generated-client.js";

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

/** The app on a loopback port (listening from the first call on), for a generated client to call. */
async function origin(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

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
    const { key } = await t.key("read");
    const stdout = await runGeneratedClient(doc, CLIENT, [await origin(), key]);
    expect(JSON.parse(stdout)).toEqual({
      rates: ["0.1"],
      spiff: "Q3 push",
      reason: "clawback",
      summaries: 3,
      csvHeader:
        "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency",
    });
  }, 120_000);
});

describe("#26 Done when: an orval client generated from the served document", () => {
  it("type-checks and reads GET /commissions.csv through its generated function as the CSV text", async () => {
    const { key } = await t.key("read");
    const expected = await t.app.inject({ method: "GET", url: "/api/v1/commissions.csv", headers: bearer(key) });
    expect(expected.statusCode).toBe(200);
    const csv = expected.rawPayload.toString("utf8");
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(4); // the header and the plan, spiff and adjustment lines
    const stdout = await runOrvalClient(doc, ORVAL_CLIENT, [await origin(), key]);
    // axios drops a UTF-8 byte order mark when it decodes text: the rest is the file, byte for byte.
    expect(JSON.parse(stdout)).toEqual({
      status: 200,
      type: "text/csv; charset=utf-8",
      disposition: 'attachment; filename="commissions.csv"',
      text: csv.replace(/^\uFEFF/, ""),
    });
  }, 120_000);
});

const ORVAL_CLIENT = `
import axios from "axios";
import { exportCommissionsCsv } from "./api.js";

const [baseURL, key] = process.argv.slice(2);
axios.defaults.baseURL = baseURL;
axios.defaults.headers.common.Authorization = \`Bearer \${key}\`;
const res = await exportCommissionsCsv();
const text: string = res.data;
const type = res.headers["content-type"];
const disposition = res.headers["content-disposition"];
console.log(JSON.stringify({ status: res.status, type, disposition, text }));
`;

const CLIENT = `
import createClient from "openapi-fetch";
import type { paths } from "./api.js";

const [baseUrl, key] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });

const { data, error } = await client.GET("/api/v1/commissions", { params: { query: { per_page: 100 } } });
if (!data) throw new Error(JSON.stringify(error));
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
const csv = await client.GET("/api/v1/commissions.csv", { parseAs: "text" });
const text: string | undefined = csv.data;
out.csvHeader = text?.split("\\r\\n")[0];
console.log(JSON.stringify(out));
`;
