import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness.js";

/**
 * #26: an example on every operation — each request body and each success body, JSON or CSV, of every
 * path and webhook — and every example valid against the schema of the body it illustrates (formats too).
 */

let t: TestApp;
let doc: OpenAPIV3_1.Document;
type Media = OpenAPIV3_1.MediaTypeObject;
/** Every body of the document that takes an example: [where, media type, its media object]. */
let bodies: [string, string, Media][];

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
  const operations = [
    ...Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, OpenAPIV3_1.OperationObject>).map(
        ([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const,
      ),
    ),
    ...Object.entries(doc.webhooks ?? {}).map(
      ([type, item]) => [`webhook ${type}`, (item as OpenAPIV3_1.PathItemObject).post!] as const,
    ),
  ];
  bodies = operations.flatMap(([where, op]) => {
    const request = Object.entries((op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {}).map(
      ([type, media]) => [`${where} request`, type, media] as [string, string, Media],
    );
    const responses = Object.entries(op.responses ?? {})
      .filter(([status, response]) => status.startsWith("2") && !("$ref" in response))
      .flatMap(([status, response]) =>
        Object.entries((response as OpenAPIV3_1.ResponseObject).content ?? {}).map(
          ([type, media]) => [`${where} ${status}`, type, media] as [string, string, Media],
        ),
      );
    return [...request, ...responses];
  });
});
afterAll(async () => t?.close());

/** The values of a body's examples: one, or one per shape the body takes (a standard and an override plan). */
const examplesOf = (media: Media) =>
  Object.values(media.examples ?? {}).map((each) => {
    const name = (each as OpenAPIV3_1.ReferenceObject).$ref?.split("/").pop();
    const example = name === undefined ? undefined : doc.components?.examples?.[name];
    return (example as OpenAPIV3_1.ExampleObject | undefined)?.value;
  });
const exampleOf = (media: Media) => examplesOf(media)[0];

describe("#26 examples", () => {
  it("every request and success body of every operation and webhook has one (from components.examples)", () => {
    expect(bodies.length).toBeGreaterThan(100);
    const missing = bodies
      .filter(([, , media]) => exampleOf(media) === undefined)
      .map(([where, type]) => `${where} ${type}`);
    expect(missing).toEqual([]);
  });

  it("every operation has one but those with no body either way (a DELETE's 204)", () => {
    const without = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, OpenAPIV3_1.OperationObject>)
        .filter(([method]) => !bodies.some(([where]) => where.startsWith(`${method.toUpperCase()} ${path} `)))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(without.every((name) => name.startsWith("DELETE "))).toBe(true);
  });

  it("every example is valid against its body's schema, formats included", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const problems: string[] = [];
    for (const [where, type, media] of bodies) {
      const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'));
      for (const example of examplesOf(media)) {
        if (!ajv.validate(schema, example)) problems.push(`${where} ${type}: ${ajv.errorsText()}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("a body with more than one example is one that takes more than one shape: POST /comp-plans's standard and override plan", () => {
    const several = bodies
      .filter(([, , media]) => examplesOf(media).length > 1)
      .map(([where, type]) => `${where} ${type}`);
    expect(several).toEqual(["POST /api/v1/comp-plans request application/json"]);
    const post = bodies.find(([where]) => where === "POST /api/v1/comp-plans request")!;
    expect(examplesOf(post[2]).map((e) => (e as { kind?: string }).kind ?? "standard")).toEqual([
      "standard",
      "override",
    ]);
  });

  it("the CSV example is what the export writes: its header, then CRLF rows", () => {
    const csv = (doc.components!.examples!.Csv as OpenAPIV3_1.ExampleObject).value as string;
    expect(csv.split("\r\n")[0]).toBe(
      "\uFEFFid,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency",
    );
    expect(csv.split("\r\n")).toHaveLength(5);
  });
});
