import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unique } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { csvOf, postCsv } from "./support.js";

/** API.md §19's file rules: encodings, RFC 4180, content types and the limits. */

let t: TestApp;
let api: Api;
let rep: { id: string; email: string };
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "admin");
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  rep = await createUser(t);
  await assign(api, plan.id, rep.id, { effective_from: "2026-01-01" });
});
afterAll(() => t.close());

const HEADER = "external_id,opportunity_name,arr_amount,close_date,owner_id";
const byExternalId = async (externalId: string) =>
  ok<Page<Deal>>(await api.get(`/deals?external_id=${encodeURIComponent(externalId)}`)).data[0];

describe("encodings and RFC 4180", () => {
  it("a BOM, CRLF and quoted cells (commas, quotes, line breaks) import as written; cells are trimmed", async () => {
    const [a, b] = [unique("crm"), unique("crm")];
    const file = `\uFEFF${csvOf([
      HEADER,
      `${a},"Acme, Inc. ""EMEA""
second line",1200.50,2026-07-15,${rep.email}`,
      `  ${b}  ,  Globex  , 99 ,2026-07-16, ${rep.id} `,
    ])}`;
    const res = ok(await postCsv(t, "deals", file, { query: "dry_run=true" }));
    expect(res).toMatchObject({ created: 2, errors: [], rows: [{ row: 2 }, { row: 3 }] });
    expect(ok(await postCsv(t, "deals", file))).toMatchObject({ created: 2, errors: [] });
    expect(await byExternalId(a)).toMatchObject({
      opportunity_name: 'Acme, Inc. "EMEA"\nsecond line',
      arr_amount: 1200.5,
      owner_id: rep.id,
      total_commission: 120.05,
    });
    expect(await byExternalId(b)).toMatchObject({ opportunity_name: "Globex", arr_amount: 99, owner_id: rep.id });
  });

  it("LF line ends, an emoji and accents; rows keep spreadsheet numbers past a quoted line break and an empty row", async () => {
    const [a, b] = [unique("crm"), unique("crm")];
    const file = csvOf(
      [HEADER, `${a},"Café 🚀\nDeux",10,2026-07-15,${rep.email}`, "", `${b},Zoë,abc,2026-07-15,${rep.email}`],
      "\n",
    );
    const res = ok<{ errors: unknown[] }>(await postCsv(t, "deals", file, { query: "dry_run=true" }));
    expect(res.errors).toEqual([
      {
        row: 4,
        field: "arr_amount",
        message: "must be a plain number such as 1234.5 (no currency sign, thousands separator or exponent)",
      },
    ]);
    ok(await postCsv(t, "deals", file.replace(",abc,", ",12,")));
    expect((await byExternalId(a))?.opportunity_name).toBe("Café 🚀\nDeux");
  });

  it("the last row needs no line break after it", async () => {
    const crm = unique("crm");
    const res = ok(await postCsv(t, "deals", `${HEADER}\r\n${crm},Last,7,2026-07-15,${rep.email}`));
    expect(res).toMatchObject({ created: 1 });
    expect((await byExternalId(crm))?.opportunity_name).toBe("Last");
  });

  it("bytes that are not UTF-8 → 400 bad_request; a declared charset other than UTF-8 → 400", async () => {
    const latin1 = Buffer.from(`${HEADER}\r\n${unique("crm")},Caf\xe9,10,2026-07-15,${rep.email}\r\n`, "latin1");
    const res = await postCsv(t, "deals", latin1);
    expect([res.statusCode, errorOf(res).code]).toEqual([400, "bad_request"]);
    expect(errorOf(res).message).toBe("The file is not valid UTF-8 text: save it as CSV UTF-8 (Excel: CSV UTF-8)");
    const declared = await postCsv(t, "deals", `${HEADER}\r\n`, {
      headers: { "content-type": "text/csv; charset=latin1" },
    });
    expect([declared.statusCode, errorOf(declared).message]).toEqual([
      400,
      "The file must be UTF-8; Content-Type says charset=latin1",
    ]);
    const utf8 = await postCsv(t, "deals", `${HEADER}\r\n`, { headers: { "content-type": "text/csv; charset=UTF-8" } });
    expect(utf8.statusCode, utf8.body).toBe(200);
  });

  it("malformed CSV (a quote never closed) → 400 naming the row", async () => {
    const res = await postCsv(t, "deals", csvOf([HEADER, `x,"Acme,10,2026-07-15,${rep.email}`]));
    expect([res.statusCode, errorOf(res).code]).toEqual([400, "bad_request"]);
    expect(errorOf(res).message).toMatch(/^The file is not valid CSV at row 2: /);
  });

  it("an empty file → 422 asking for a header row", async () => {
    const res = await postCsv(t, "deals", "");
    expect([res.statusCode, errorOf(res).details]).toEqual([
      422,
      [{ param: "body", message: "is empty: the file needs a header row naming its columns, then a row per record" }],
    ]);
  });
});

describe("content types", () => {
  it("JSON, text/plain or no Content-Type → 415 unsupported_media_type; other routes still take JSON", async () => {
    const { key } = await t.key("write");
    for (const headers of [{ "content-type": "application/json" }, { "content-type": "text/plain" }]) {
      const res = await postCsv(t, "deals", '{"deals":[]}', { headers, key });
      expect([res.statusCode, errorOf(res).code], res.body).toEqual([415, "unsupported_media_type"]);
      expect(errorOf(res).message).toContain("send the file as text/csv");
    }
    const none = await t.app.inject({
      method: "POST",
      url: "/api/v1/imports/users",
      headers: { authorization: `Bearer ${key}` },
    });
    expect([none.statusCode, errorOf(none).message]).toEqual([
      415,
      "Send the file as the body, with Content-Type: text/csv",
    ]);
    // The text/csv parser is the imports' alone.
    const deals = await api.request("POST", "/deals/bulk", "external_id\r\n", { "content-type": "text/csv" });
    expect([deals.statusCode, errorOf(deals).code]).toEqual([415, "unsupported_media_type"]);
  });

  it("a write key's scope is checked before the body: a read key → 403", async () => {
    const { key } = await t.key("read");
    const res = await postCsv(t, "users", "name\r\n", { key, headers: { "content-type": "application/json" } });
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
  });
});

describe("limits (413 advising to split)", () => {
  it("more than 50,000 record rows → 413; 50,000 are read", async () => {
    const row = (i: number) => `r${i},N,1,2026-07-15,nobody@example.com`;
    const rows = Array.from({ length: 50_001 }, (_, i) => row(i));
    const res = await postCsv(t, "deals", csvOf([HEADER, ...rows]), { query: "dry_run=true" });
    expect([res.statusCode, errorOf(res).code]).toEqual([413, "payload_too_large"]);
    expect(errorOf(res).message).toBe(
      "The file has more than 50,000 rows: split it into files of at most 50,000 rows (and 32 MiB) each",
    );
    const fits = await postCsv(t, "deals", csvOf([HEADER, ...rows.slice(0, 50_000)]), { query: "dry_run=true" });
    expect(fits.statusCode).toBe(200);
    expect(fits.json()).toMatchObject({ created: 0, errors: { length: 50_000 } });
  });

  it("a file over 32 MiB → 413 saying to split; 1 MiB bodies stay the JSON routes' limit", async () => {
    const big = `${HEADER}\r\n${"x".repeat(32 * 1024 * 1024)}\r\n`;
    const res = await postCsv(t, "deals", big);
    expect([res.statusCode, errorOf(res).code]).toEqual([413, "payload_too_large"]);
    expect(errorOf(res).message).toBe(
      "The file is larger than 32 MiB: split it into files of at most 32 MiB and 50,000 rows each",
    );
    const json = await api.post("/deals/bulk", { deals: [{ opportunity_name: "x".repeat(1024 * 1024) }] });
    expect([json.statusCode, errorOf(json).message]).toEqual([413, "Request body is larger than 1 MiB"]);
  });
});
