import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("the served OpenAPI document", () => {
  it("lints clean with Spectral's spectral:oas ruleset (no errors, no warnings)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [[oas as never, "recommended"]] } as never);
    const document = new spectralCore.Document(res.body, spectralParsers.Json, "openapi.json");
    const results = await spectral.run(document);
    const problems = results.map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
    expect(problems).toEqual([]);
  }, 180_000); // a 460 KB document: about 10 s alone, several times that beside other test runs
});
