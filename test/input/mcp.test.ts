import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, post } from "../mcp/client.js";

const t: TestApp = await createTestApp();
let origin = "";
let key = "";
let client: Client;

beforeAll(async () => {
  origin = await listen(t);
  key = (await mcpKey(t, "write", "write")).key;
  client = await connect(origin, key);
});
afterAll(async () => {
  await client.close();
  await t.close();
});

describe("#13.9, #13.11, #13.14 MCP arguments go through the same schemas and checks", () => {
  it("year 0000 in a date or timestamp argument → validation_error stating the range", async () => {
    const user = await createUser(t);
    const body = { opportunity_name: "Y0", arr_amount: 1, close_date: "0000-01-01", owner_id: user.id };
    const error = errorIn(await call(client, "create_deal", body));
    expect(error.code).toBe("validation_error");
    expect(error.details).toEqual([
      { param: "close_date", message: "must be a date YYYY-MM-DD from 0001-01-01 to 9999-12-31" },
    ]);
    const since = errorIn(await call(client, "list_deals", { updated_since: "0000-06-01T00:00:00.000Z" }));
    expect(since.details?.[0]?.param).toBe("updated_since");
  });

  it("per_page takes a JSON integer, and a digit string, but not 0x10", async () => {
    expect((await call(client, "list_deals", { per_page: 5 })).isError).toBeFalsy();
    const hex = errorIn(await call(client, "list_deals", { per_page: "0x10" }));
    expect(hex.details).toEqual([{ param: "per_page", message: "must be a whole number written in digits" }]);
  });

  it("a lone surrogate in an argument → 422 naming it, nothing stored", async () => {
    const user = await createUser(t);
    const res = await post(
      origin,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "create_deal",
          arguments: { opportunity_name: "a\ud800", arr_amount: 1, close_date: "2026-01-01", owner_id: user.id },
        },
      },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: unknown } };
    expect(body.error.code).toBe("validation_error");
    expect(body.error.details).toEqual([
      {
        param: "params.arguments.opportunity_name",
        message: "must not contain a lone UTF-16 surrogate (invalid Unicode)",
      },
    ]);
  });
});
