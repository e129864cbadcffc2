import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import { createUser, errorOf, unique } from "../factories.js";
import { Api, approveAsOwner, assign, createPlan, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { csvOf, postCsv } from "./support.js";

/** POST /imports/deals: columns, mapping, splits, stored values, locked deals, all or nothing, idempotency, audit. */

let t: TestApp;
let api: Api;
let ana: { id: string; email: string };
let ben: { id: string; email: string };
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "admin");
  const plan = await createPlan(api, { tiers: null, quota: null, base_rate: 0.1 });
  ana = await createUser(t);
  ben = await createUser(t);
  for (const rep of [ana, ben]) await assign(api, plan.id, rep.id, { effective_from: "2026-01-01" });
});
afterAll(() => t.close());

const HEADER = "external_id,opportunity_name,arr_amount,close_date,owner_id";
const dealOf = async (externalId: string) =>
  ok<Page<Deal>>(await api.get(`/deals?external_id=${encodeURIComponent(externalId)}`)).data[0]!;
const rowsIn = async (table: "deals" | "events" | "audit_events") =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.db.db)).rows[0]!.n);
const line = (externalId: string, amount = "1000", owner = ana.email) =>
  `${externalId},Deal ${externalId},${amount},2026-07-15,${owner}`;

describe("columns", () => {
  it("?map renames the file's columns and skips one; users by id or email, any case", async () => {
    const crm = unique("crm");
    const file = csvOf([
      "CRM Id,Name,Amount,Closed,Rep,Notes",
      `${crm},Acme,2500,2026-07-15,${ana.email.toUpperCase()},call back`,
    ]);
    const map = "CRM Id:external_id,Name:opportunity_name,Amount:arr_amount,Closed:close_date,Rep:owner_id,Notes:-";
    const res = ok(await postCsv(t, "deals", file, { query: `map=${encodeURIComponent(map)}` }));
    expect(res).toEqual({ created: 1, updated: 0, unchanged: 0, errors: [], recalculation_job_id: null });
    expect(await dealOf(crm)).toMatchObject({
      opportunity_name: "Acme",
      arr_amount: 2500,
      close_date: "2026-07-15",
      owner_id: ana.id,
      currency: "USD",
      deal_type: "new_business",
      splits: [{ user_id: ana.id, percent: 100 }],
      total_commission: 250,
    });
  });

  it("an unknown, repeated or unnamed column, or a map naming what is not there → 422 naming each; nothing read", async () => {
    const res = await postCsv(t, "deals", csvOf(["external_id,Notes,arr_amount,arr_amount,", "x,y,1,2,"]));
    expect([res.statusCode, errorOf(res).code]).toEqual([422, "validation_error"]);
    expect(errorOf(res).details).toEqual([
      {
        param: "header",
        message:
          'column 2 "Notes" is not a field (external_id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id, contract_start, contract_end, split_user_ids, split_percents): rename it, map it with ?map=Notes:field, or skip it with ?map=Notes:-',
      },
      { param: "header", message: 'column 4 "arr_amount" repeats arr_amount (column 3)' },
      { param: "header", message: "column 5 has no name: name it, or remove the column" },
    ]);
    const renamedOnto = await postCsv(t, "deals", csvOf(["external_id,Amount,arr_amount", "x,1,2"]), {
      query: "map=Amount:arr_amount",
    });
    expect(errorOf(renamedOnto).details).toEqual([
      { param: "header", message: 'column 3 "arr_amount" repeats arr_amount (column 2)' },
    ]);
    const badMap = await postCsv(t, "deals", csvOf(["external_id,Amount", "x,1"]), {
      query: `map=${encodeURIComponent("Amt:arr_amount,Amount:amount,oops")}`,
    });
    expect(errorOf(badMap).details).toEqual([
      { param: "map", message: '"oops" is not csv_col:field (or csv_col:- to skip the column)' },
    ]);
    const missing = await postCsv(t, "deals", csvOf(["external_id,Amount", "x,1"]), {
      query: `map=${encodeURIComponent("Amt:arr_amount,Amount:amount")}`,
    });
    expect(errorOf(missing).details).toEqual([
      { param: "map", message: 'names column "Amt", which the file lacks' },
      {
        param: "map",
        message:
          'maps "Amount" to amount, which is not a field (external_id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id, contract_start, contract_end, split_user_ids, split_percents; or - to skip)',
      },
    ]);
    const noId = await postCsv(t, "deals", csvOf(["opportunity_name", "x"]));
    expect(errorOf(noId).details).toEqual([
      { param: "header", message: "has no external_id column; every file needs one" },
    ]);
  });

  it("a column the file lacks keeps the stored value; a new deal gets the default or is refused as required", async () => {
    const crm = unique("crm");
    ok(
      await postCsv(
        t,
        "deals",
        csvOf([
          `${HEADER},currency,deal_type,contract_start,contract_end`,
          `${line(crm)},EUR,renewal,2026-07-01,2027-06-30`,
        ]),
      ),
    );
    const fresh = unique("crm");
    const res = ok(
      await postCsv(t, "deals", csvOf(["external_id,arr_amount", `${crm},1500`, `${fresh},10`]), {
        query: "dry_run=true",
      }),
    );
    expect(res).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
      errors: [
        { row: 3, field: "opportunity_name", message: "is required" },
        { row: 3, field: "close_date", message: "is required" },
        { row: 3, field: "owner_id", message: "is required" },
      ],
      rows: [
        { row: 2, external_id: crm, action: "update" },
        { row: 3, external_id: fresh, action: "error" },
      ],
    });
    ok(await postCsv(t, "deals", csvOf(["external_id,arr_amount", `${crm},1500`])));
    expect(await dealOf(crm)).toMatchObject({
      arr_amount: 1500,
      currency: "EUR",
      deal_type: "renewal",
      contract_start: "2026-07-01",
      contract_end: "2027-06-30",
      opportunity_name: `Deal ${crm}`,
    });
  });

  it("an empty cell is null or the default: currency USD, deal_type new_business, contract dates null", async () => {
    const crm = unique("crm");
    const head = `${HEADER},currency,deal_type,contract_start,contract_end`;
    ok(await postCsv(t, "deals", csvOf([head, `${line(crm)},EUR,renewal,2026-07-01,2027-06-30`])));
    const res = ok(await postCsv(t, "deals", csvOf([head, `${line(crm)},,,,`])));
    expect(res).toMatchObject({ updated: 1 });
    expect(await dealOf(crm)).toMatchObject({
      currency: "USD",
      deal_type: "new_business",
      contract_start: null,
      contract_end: null,
    });
    const empty = ok(await postCsv(t, "deals", csvOf([head, `${crm},,,,,,,,`]), { query: "dry_run=true" }));
    expect(empty).toMatchObject({
      errors: [
        { row: 2, field: "opportunity_name", message: "is required" },
        { row: 2, field: "arr_amount", message: "is required" },
        { row: 2, field: "close_date", message: "is required" },
        { row: 2, field: "owner_id", message: "is required" },
      ],
    });
  });
});

describe("splits columns", () => {
  it("two ; lists of users (id or email) and percents; absent they stay; both empty → the owner at 100", async () => {
    const crm = unique("crm");
    const head = `${HEADER},split_user_ids,split_percents`;
    ok(await postCsv(t, "deals", csvOf([head, `${line(crm, "10000")},${ana.email}; ${ben.id},60 ; 40`])));
    const split = await dealOf(crm);
    expect(split.splits).toEqual([
      { user_id: ana.id, percent: 60 },
      { user_id: ben.id, percent: 40 },
    ]);
    expect(split.total_commission).toBe(1000);
    // A file without the splits columns keeps them.
    expect(ok(await postCsv(t, "deals", csvOf(["external_id,arr_amount", `${crm},20000`])))).toMatchObject({
      updated: 1,
    });
    expect((await dealOf(crm)).splits).toEqual(split.splits);
    // Both empty: back to the owner at 100, following the owner.
    ok(await postCsv(t, "deals", csvOf([head, `${line(crm, "20000")},,`])));
    expect((await dealOf(crm)).splits).toEqual([{ user_id: ana.id, percent: 100 }]);
    ok(await postCsv(t, "deals", csvOf(["external_id,owner_id", `${crm},${ben.email}`])));
    expect((await dealOf(crm)).splits).toEqual([{ user_id: ben.id, percent: 100 }]);
  });

  it("unequal lists, one list alone, unknown users, a user twice, bad percents → row errors in the file's terms", async () => {
    const head = `${HEADER},split_user_ids,split_percents`;
    const rows = [
      `${line(unique("crm"))},${ana.id};${ben.id},100`,
      `${line(unique("crm"))},${ana.id},`,
      `${line(unique("crm"))},nobody@example.com;usr_00000000000000000000000000,50;50`,
      `${line(unique("crm"))},${ana.id};${ana.email},50;50`,
      `${line(unique("crm"))},${ana.id};${ben.id},50;5O`,
      `${line(unique("crm"), "10", "ghost@example.com")},,`,
    ];
    const res = ok<{ errors: unknown[] }>(await postCsv(t, "deals", csvOf([head, ...rows]), { query: "dry_run=true" }));
    expect(res.errors).toEqual([
      {
        row: 2,
        field: "split_percents",
        message: "lists 1 percents for the 2 users of split_user_ids (one each, in order)",
      },
      { row: 3, field: "split_percents", message: "is required with split_user_ids (give both or neither)" },
      { row: 4, field: "split_user_ids", message: "no user has the email nobody@example.com" },
      { row: 5, field: "split_user_ids", message: `lists ${ana.id} twice` },
      {
        row: 6,
        field: "split_percents",
        message:
          'must be a plain number such as 1234.5 (no currency sign, thousands separator or exponent) (percent 2: "5O")',
      },
      { row: 7, field: "owner_id", message: "no user has the email ghost@example.com" },
    ]);
    const unknownId = await postCsv(
      t,
      "deals",
      csvOf([head, `${line(unique("crm"))},usr_00000000000000000000000000,100`]),
      { query: "dry_run=true" },
    );
    expect(unknownId.json().errors).toEqual([
      { row: 2, field: "split_user_ids", message: "user usr_00000000000000000000000000 does not exist" },
    ]);
  });
});

describe("stored deals", () => {
  it("a change to a locked deal is a row error; its contract dates alone may change; equal rows are unchanged", async () => {
    const crm = unique("crm");
    const head = `${HEADER},contract_start,contract_end`;
    ok(await postCsv(t, "deals", csvOf([head, `${line(crm)},,`])));
    const deal = await dealOf(crm);
    await approveAsOwner(t, deal.id);
    const changed = ok(await postCsv(t, "deals", csvOf([head, `${line(crm, "999")},,`]), { query: "dry_run=true" }));
    expect(changed).toMatchObject({
      errors: [
        { row: 2, field: null, message: `deal ${deal.id} is approved; an upsert may change only its contract dates` },
      ],
      rows: [{ row: 2, action: "error" }],
    });
    const refused = await postCsv(t, "deals", csvOf([head, `${line(crm, "999")},,`]));
    expect(errorOf(refused).details).toEqual([
      {
        param: "rows[2]",
        row: 2,
        field: null,
        message: `deal ${deal.id} is approved; an upsert may change only its contract dates`,
      },
    ]);
    expect(ok(await postCsv(t, "deals", csvOf([head, `${line(crm)},,`])))).toMatchObject({ unchanged: 1 });
    expect(ok(await postCsv(t, "deals", csvOf([head, `${line(crm)},2026-07-01,2027-06-30`])))).toMatchObject({
      updated: 1,
    });
    expect(await dealOf(crm)).toMatchObject({ status: "approved", contract_end: "2027-06-30", arr_amount: 1000 });
  });

  it("an external_id twice in one file: the second row is the error", async () => {
    const crm = unique("crm");
    const res = ok(await postCsv(t, "deals", csvOf([HEADER, line(crm), line(crm, "5")]), { query: "dry_run=true" }));
    expect(res).toMatchObject({
      created: 1,
      errors: [{ row: 3, field: "external_id", message: `repeats row 2 (${crm}); each deal once per file` }],
    });
  });
});

describe("all or nothing", () => {
  it("one bad row among 1,200 (past the first step of 1,000) → 422 and nothing written: no deal, event or audit row", async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => line(unique(`bulk${i}`), i === 1149 ? "-5" : "100"));
    const { key } = await t.key("write");
    const before = await Promise.all([rowsIn("deals"), rowsIn("events"), rowsIn("audit_events")]);
    const res = await postCsv(t, "deals", csvOf([HEADER, ...rows]), { key });
    expect([res.statusCode, errorOf(res).code]).toEqual([422, "validation_error"]);
    expect(errorOf(res).details).toEqual([
      { param: "rows[1151].arr_amount", row: 1151, field: "arr_amount", message: expect.any(String) },
    ]);
    expect(errorOf(res).message).toBe(
      `Nothing was imported: 1 problem in 1 row (rows[1151].arr_amount ${errorOf(res).details![0]!.message})`,
    );
    expect(await Promise.all([rowsIn("deals"), rowsIn("events"), rowsIn("audit_events")])).toEqual(before);
  });

  it("1,200 good rows: created in steps of 1,000 in one import, with their events and audit rows", async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => line(unique(`ok${i}`)));
    const { key } = await t.key("write");
    const before = await Promise.all([rowsIn("deals"), rowsIn("audit_events")]);
    expect(ok(await postCsv(t, "deals", csvOf([HEADER, ...rows]), { key }))).toMatchObject({ created: 1200 });
    // Each deal's audit row, plus the import's own.
    expect(await Promise.all([rowsIn("deals"), rowsIn("audit_events")])).toEqual([
      before[0]! + 1200,
      before[1]! + 1201,
    ]);
  });

  it("more than 1,000 problems: 1,000 details, then one counting the rest", async () => {
    const rows = Array.from({ length: 1002 }, (_, i) => line(`bad-${i}`, "x"));
    const res = await postCsv(t, "deals", csvOf([HEADER, ...rows]));
    const details = errorOf(res).details!;
    expect(details).toHaveLength(1001);
    expect(details[999]).toMatchObject({ param: "rows[1001].arr_amount", row: 1001 });
    expect(details[1000]).toEqual({ param: "rows", message: "and 2 more problems not listed" });
  });
});

describe("idempotency and audit", () => {
  it("a replay with the same Idempotency-Key answers the stored reply; another query or file → 422 reused", async () => {
    const { key } = await t.key("write");
    const file = csvOf([HEADER, line(unique("crm")), line(unique("crm"))]);
    const headers = { "idempotency-key": unique("idem") };
    const first = await postCsv(t, "deals", file, { key, headers });
    expect(first.json()).toMatchObject({ created: 2 });
    const deals = await rowsIn("deals");
    const again = await postCsv(t, "deals", file, { key, headers });
    expect([again.statusCode, again.headers["idempotent-replayed"], again.body]).toEqual([200, "true", first.body]);
    expect(await rowsIn("deals")).toBe(deals);
    for (const other of [{ query: "dry_run=true" }, { file: `${file}${line(unique("crm"))}\r\n` }]) {
      const res = await postCsv(t, "deals", other.file ?? file, {
        key,
        headers,
        ...(other.query && { query: other.query }),
      });
      expect([res.statusCode, errorOf(res).code]).toEqual([422, "idempotency_key_reused"]);
    }
  });

  it("one audit row names the import and the file's SHA-256 (its bytes, BOM included)", async () => {
    const { key, id } = await t.key("write");
    const file = `\uFEFF${csvOf([HEADER, line(unique("crm")), line(unique("crm"))])}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/imports/deals",
      headers: { ...bearer(key), "content-type": "text/csv" },
      payload: Buffer.from(file, "utf8"),
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await t.db.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "import.deals")
      .where("request_id", "=", String(res.headers["request-id"]))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ resource: "import", actor_type: "api_key", actor_id: id });
    expect(rows[0]!.resource_id).toMatch(/^imp_/);
    const after = typeof rows[0]!.after === "string" ? JSON.parse(rows[0]!.after) : rows[0]!.after;
    expect(after).toEqual({
      id: rows[0]!.resource_id,
      resource: "deals",
      file_sha256: createHash("sha256").update(Buffer.from(file, "utf8")).digest("hex"),
      file_bytes: Buffer.byteLength(file),
      rows: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
    });
  });
});
