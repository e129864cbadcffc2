import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, toolNames } from "./client.js";

// API.md §15: MCP read list_exchange_rates, admin put_exchange_rates.

let t: TestApp;
let origin: string;
const clients: Client[] = [];
beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t.close();
});

const clientFor = async (scope: "read" | "admin", grant: "read" | "admin") => {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
};

describe("exchange-rate tools", () => {
  it("an admin puts a day's rates; a reader lists them exactly as REST answers", async () => {
    const admin = await clientFor("admin", "admin");
    const put = await call(admin, "put_exchange_rates", {
      date: "2026-03-09",
      base: "USD",
      rates: { GBP: "0.790", EUR: "0.92" },
    });
    expect(put.isError).toBeFalsy();
    expect(put.structuredContent).toMatchObject({
      date: "2026-03-09",
      base: "USD",
      rates: { EUR: "0.92", GBP: "0.79" },
      recalculation_job_id: null,
    });
    const reader = await clientFor("read", "read");
    expect(await toolNames(reader)).toContain("list_exchange_rates");
    expect(await toolNames(reader)).not.toContain("put_exchange_rates");
    const listed = await call(reader, "list_exchange_rates", { base: "USD" });
    const rest = await t.app.inject({
      method: "GET",
      url: "/api/v1/exchange-rates?base=USD",
      headers: { authorization: `Bearer ${(await mcpKey(t, "read")).key}` },
    });
    expect(listed.structuredContent).toEqual(rest.json());
  });

  it("refuses bad rates with the REST details", async () => {
    const admin = await clientFor("admin", "admin");
    const res = await call(admin, "put_exchange_rates", { date: "2026-03-10", base: "USD", rates: { USD: "1" } });
    const error = errorIn(res);
    expect(error.code).toBe("validation_error");
    expect(error.details?.map((d) => d.param)).toContain("rates.USD");
  });
});
