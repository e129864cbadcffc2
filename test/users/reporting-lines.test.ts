import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  everReportedTo,
  type ReportingChange,
  type ReportingLine,
  reportingLinesBetween,
  reportingLinesOf,
  setReportingChangeHandler,
  type User,
} from "../../src/users/index.js";
import { createApiKey, createUser, errorOf, unique, uniqueEmail } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { csvOf, postCsv } from "../imports/support.js";
import { signedInAs } from "../sessions.js";

/** API.md §16: reporting lines over time through PATCH/POST /users, GET and PUT /users/{id}/reporting-lines. */

const TODAY = "2026-11-22";
let t: TestApp;
let api: Api;
/** What the reporting-change port heard, and the job id it answers with (null: none). */
const heard: ReportingChange[] = [];
let jobId: string | null = null;
let previousHandler: ReturnType<typeof setReportingChangeHandler>;

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock(Date.parse(`${TODAY}T10:00:00.000Z`)) });
  api = new Api(t, "admin");
  previousHandler = setReportingChangeHandler(async (_tx, _ctx, change) => {
    heard.push(change);
    return { jobId };
  });
});

afterAll(async () => {
  setReportingChangeHandler(previousHandler);
  await t?.close();
});

const line = (
  manager_id: string | null,
  effective_from: string,
  effective_to: string | null = null,
): ReportingLine => ({
  manager_id,
  effective_from,
  effective_to,
});

async function linesOf(id: string): Promise<ReportingLine[]> {
  return ok<{ data: ReportingLine[] }>(await api.get(`/users/${id}/reporting-lines`)).data;
}

const patch = (id: string, body: object) => api.patch(`/users/${id}`, body);
const put = (id: string, lines: object[]) => api.put(`/users/${id}/reporting-lines`, { lines });
const managerOf = async (id: string) => ok<User>(await api.get(`/users/${id}`)).manager_id;

function expect422(res: Awaited<ReturnType<typeof patch>>, param: string, message?: string | RegExp) {
  expect(res.statusCode, res.body).toBe(422);
  const error = errorOf(res);
  expect(error.code).toBe("validation_error");
  expect(error.details?.map((d) => d.param)).toEqual([param]);
  if (typeof message === "string") expect(error.details?.[0]?.message).toBe(message);
  else if (message) expect(error.details?.[0]?.message).toMatch(message);
}

describe("PATCH /users/{id} with manager_id", () => {
  it("ends the open line the day before and opens one, with and without a date; equal dates replace", async () => {
    const [m1, m2, m3] = [await createUser(t), await createUser(t), await createUser(t)];
    const rep = await createUser(t, { manager_id: m1.id, manager_effective_from: "2026-01-01" });
    expect(await linesOf(rep.id)).toEqual([line(m1.id, "2026-01-01")]);

    heard.length = 0;
    const moved = await patch(rep.id, { manager_id: m2.id, manager_effective_from: "2026-06-01" });
    expect(ok<User>(moved).manager_id).toBe(m2.id);
    expect(moved.headers["recalculation-job-id"]).toBeUndefined();
    expect(await linesOf(rep.id)).toEqual([line(m1.id, "2026-01-01", "2026-05-31"), line(m2.id, "2026-06-01")]);
    expect(heard).toEqual([{ user_id: rep.id, ranges: [{ from: "2026-06-01", to: null }] }]);

    // No date: from today.
    ok(await patch(rep.id, { manager_id: m3.id }));
    expect(await linesOf(rep.id)).toEqual([
      line(m1.id, "2026-01-01", "2026-05-31"),
      line(m2.id, "2026-06-01", "2026-11-21"),
      line(m3.id, TODAY),
    ]);

    // The open line's own start: replaced, not split.
    ok(await patch(rep.id, { manager_id: m1.id, manager_effective_from: TODAY }));
    expect(await linesOf(rep.id)).toEqual([
      line(m1.id, "2026-01-01", "2026-05-31"),
      line(m2.id, "2026-06-01", "2026-11-21"),
      line(m1.id, TODAY),
    ]);
    expect(await managerOf(rep.id)).toBe(m1.id);

    // null: a span with no manager; users.manager_id follows today's line.
    ok(await patch(rep.id, { manager_id: null, manager_effective_from: TODAY }));
    expect((await linesOf(rep.id)).at(-1)).toEqual(line(null, TODAY));
    expect(await managerOf(rep.id)).toBeNull();
  });

  it("the same manager again changes nothing (no line, no audit row, no recalculation)", async () => {
    const boss = await createUser(t);
    const rep = await createUser(t, { manager_id: boss.id, manager_effective_from: "2026-03-01" });
    heard.length = 0;
    ok(await patch(rep.id, { manager_id: boss.id, manager_effective_from: "2026-05-01" }));
    expect(await linesOf(rep.id)).toEqual([line(boss.id, "2026-03-01")]);
    expect(heard).toEqual([]);
  });

  it("a user with no line who gets a manager: the line starts at the given date", async () => {
    const [boss, rep] = [await createUser(t), await createUser(t)];
    expect(await linesOf(rep.id)).toEqual([]);
    ok(await patch(rep.id, { manager_id: boss.id, manager_effective_from: "2025-03-01" }));
    expect(await linesOf(rep.id)).toEqual([line(boss.id, "2025-03-01")]);
  });

  it("refuses a date after today, a date before the open line starts, and a date without manager_id", async () => {
    const [boss, other] = [await createUser(t), await createUser(t)];
    const rep = await createUser(t, { manager_id: boss.id, manager_effective_from: "2026-04-01" });
    expect422(
      await patch(rep.id, { manager_id: other.id, manager_effective_from: "2026-11-23" }),
      "manager_effective_from",
      `must be today (${TODAY}) or earlier`,
    );
    expect422(
      await patch(rep.id, { manager_id: other.id, manager_effective_from: "2026-03-31" }),
      "manager_effective_from",
      /^must be on or after 2026-04-01, when the current reporting line starts/,
    );
    expect422(
      await patch(rep.id, { manager_effective_from: "2026-05-01" }),
      "manager_effective_from",
      "is read only with manager_id: send the manager too (null for no manager)",
    );
    expect422(
      await patch(rep.id, { manager_id: other.id, manager_effective_from: "2026-13-01" }),
      "manager_effective_from",
    );
    expect(await linesOf(rep.id)).toEqual([line(boss.id, "2026-04-01")]);
  });

  it("refuses an unknown manager and the user itself, naming manager_id", async () => {
    const rep = await createUser(t);
    const missing = "usr_00000000000000000000000000";
    expect422(await patch(rep.id, { manager_id: missing }), "manager_id", `user ${missing} does not exist`);
    expect422(await patch(rep.id, { manager_id: rep.id }), "manager_id", "cannot be the user itself");
  });

  it("writes the audit row user.reporting_lines with before and after", async () => {
    const [m1, m2] = [await createUser(t), await createUser(t)];
    const rep = await createUser(t, { manager_id: m1.id, manager_effective_from: "2026-01-01" });
    ok(await patch(rep.id, { manager_id: m2.id, manager_effective_from: "2026-07-01" }));
    const rows = await t.db.db
      .selectFrom("audit_events")
      .select(["before", "after"])
      .where("action", "=", "user.reporting_lines")
      .where("resource_id", "=", rep.id)
      .orderBy("id")
      .execute();
    const parse = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
    expect(rows.map((r) => [parse(r.before), parse(r.after)])).toEqual([
      [{ lines: [] }, { lines: [line(m1.id, "2026-01-01")] }],
      [
        { lines: [line(m1.id, "2026-01-01")] },
        { lines: [line(m1.id, "2026-01-01", "2026-06-30"), line(m2.id, "2026-07-01")] },
      ],
    ]);
  });

  it("sets Recalculation-Job-Id when the port left the change to a job", async () => {
    const [m1, m2] = [await createUser(t), await createUser(t)];
    const rep = await createUser(t, { manager_id: m1.id, manager_effective_from: "2026-01-01" });
    jobId = "job_01J5S0D6H9K2M5P8R1T4W7Y0B3";
    try {
      const res = await patch(rep.id, { manager_id: m2.id, manager_effective_from: "2026-02-01" });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["recalculation-job-id"]).toBe(jobId);
      const rewritten = await put(rep.id, [{ manager_id: m2.id, effective_from: "2025-01-01" }]);
      expect(rewritten.statusCode, rewritten.body).toBe(200);
      expect(rewritten.headers["recalculation-job-id"]).toBe(jobId);
    } finally {
      jobId = null;
    }
  });
});

describe("POST /users with manager_effective_from", () => {
  it("starts the first line at the date, else today; refuses a later date or a date alone", async () => {
    const boss = await createUser(t);
    const dated = ok<User>(
      await api.post("/users", {
        name: "Dee Dated",
        email: uniqueEmail("dee"),
        manager_id: boss.id,
        manager_effective_from: "2026-02-01",
      }),
      201,
    );
    expect(await linesOf(dated.id)).toEqual([line(boss.id, "2026-02-01")]);
    const today = ok<User>(
      await api.post("/users", { name: "Tod", email: uniqueEmail("tod"), manager_id: boss.id }),
      201,
    );
    expect(await linesOf(today.id)).toEqual([line(boss.id, TODAY)]);
    const none = ok<User>(await api.post("/users", { name: "Nell", email: uniqueEmail("nell") }), 201);
    expect(await linesOf(none.id)).toEqual([]);
    expect422(
      await api.post("/users", {
        name: "Fay",
        email: uniqueEmail("fay"),
        manager_id: boss.id,
        manager_effective_from: "2027-01-01",
      }),
      "manager_effective_from",
    );
    expect422(
      await api.post("/users", { name: "Al", email: uniqueEmail("al"), manager_effective_from: "2026-01-01" }),
      "manager_effective_from",
    );
  });
});

describe("PUT /users/{id}/reporting-lines", () => {
  it("rewrites the whole history: sorted, each ending the day before the next, the last open", async () => {
    const [m1, m2] = [await createUser(t), await createUser(t)];
    const rep = await createUser(t, { manager_id: m1.id });
    heard.length = 0;
    const res = await put(rep.id, [
      { manager_id: m2.id, effective_from: "2026-05-01" },
      { manager_id: m1.id, effective_from: "2025-01-01" },
      { manager_id: null, effective_from: "2026-03-01" },
    ]);
    const expected = [
      line(m1.id, "2025-01-01", "2026-02-28"),
      line(null, "2026-03-01", "2026-04-30"),
      line(m2.id, "2026-05-01"),
    ];
    expect(ok(res)).toEqual({ data: expected });
    expect(await linesOf(rep.id)).toEqual(expected);
    expect(await managerOf(rep.id)).toBe(m2.id);
    // Before: m1 from today. Changed: 2025-01-01 … today - 1 (nobody → m1 and null), and today on (m1 → m2).
    expect(heard).toEqual([
      {
        user_id: rep.id,
        ranges: [
          { from: "2025-01-01", to: "2026-02-28" },
          { from: "2026-05-01", to: null },
        ],
      },
    ]);

    // Empty: no manager ever.
    expect(ok(await put(rep.id, []))).toEqual({ data: [] });
    expect(await linesOf(rep.id)).toEqual([]);
    expect(await managerOf(rep.id)).toBeNull();
  });

  it("refuses repeated dates, dates after today, unknown managers and the user itself, naming lines[i]", async () => {
    const boss = await createUser(t);
    const rep = await createUser(t, { manager_id: boss.id, manager_effective_from: "2026-01-01" });
    const repeated = await put(rep.id, [
      { manager_id: boss.id, effective_from: "2026-01-01" },
      { manager_id: null, effective_from: "2026-01-01" },
    ]);
    expect422(repeated, "lines[1].effective_from", "repeats lines[0].effective_from; dates must be unique");
    expect422(
      await put(rep.id, [{ manager_id: boss.id, effective_from: "2026-11-23" }]),
      "lines[0].effective_from",
      `must be today (${TODAY}) or earlier`,
    );
    const missing = "usr_00000000000000000000000000";
    expect422(
      await put(rep.id, [
        { manager_id: boss.id, effective_from: "2026-01-01" },
        { manager_id: missing, effective_from: "2026-02-01" },
      ]),
      "lines[1].manager_id",
      `user ${missing} does not exist`,
    );
    expect422(
      await put(rep.id, [{ manager_id: rep.id, effective_from: "2026-01-01" }]),
      "lines[0].manager_id",
      "cannot be the user itself",
    );
    expect(await linesOf(rep.id)).toEqual([line(boss.id, "2026-01-01")]);
  });

  it("is for admins: a write key and a manager get 403, an unknown user 404", async () => {
    const rep = await createUser(t);
    const body = { lines: [] };
    const write = await createApiKey(t, "write");
    const asKey = await t.app.inject({
      method: "PUT",
      url: `/api/v1/users/${rep.id}/reporting-lines`,
      headers: bearer(write.key),
      payload: body,
    });
    expect(asKey.statusCode, asKey.body).toBe(403);
    expect(errorOf(asKey).message).toBe("This endpoint needs the admin scope; this key has write");
    const manager = await signedInAs(t, { role: "manager" });
    ok(await patch(rep.id, { manager_id: manager.user.id }));
    const asManager = await t.app.inject({
      method: "PUT",
      url: `/api/v1/users/${rep.id}/reporting-lines`,
      headers: manager.headers("PUT"),
      payload: body,
    });
    expect(asManager.statusCode, asManager.body).toBe(403);
    const admin = await signedInAs(t, { role: "admin" });
    const asAdmin = await t.app.inject({
      method: "PUT",
      url: `/api/v1/users/${rep.id}/reporting-lines`,
      headers: admin.headers("PUT"),
      payload: body,
    });
    expect(ok(asAdmin)).toEqual({ data: [] });
    expect((await put("usr_00000000000000000000000000", [])).statusCode).toBe(404);
  });
});

describe("cycles on any date", () => {
  it("today's cycle, direct and longer → 422 naming manager_id", async () => {
    const a = await createUser(t);
    const b = await createUser(t, { manager_id: a.id });
    const c = await createUser(t, { manager_id: b.id });
    expect422(
      await patch(a.id, { manager_id: b.id }),
      "manager_id",
      `${b.id} reports to ${a.id}; managers cannot form a cycle`,
    );
    expect422(
      await patch(a.id, { manager_id: c.id }),
      "manager_id",
      `${c.id} reports to ${a.id}; managers cannot form a cycle`,
    );
  });

  it("a cycle only on a past date: A under B from 2026-01-01 (ended), then B under A from 2025-06-01 → 422", async () => {
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    ok(
      await put(a.id, [
        { manager_id: b.id, effective_from: "2026-01-01" },
        { manager_id: c.id, effective_from: "2026-04-01" },
      ]),
    );
    // Today's tree has A under C and B under nobody: no cycle today, but one during 2026-01-01 … 03-31.
    const res = await patch(b.id, { manager_id: a.id, manager_effective_from: "2025-06-01" });
    expect422(
      res,
      "manager_id",
      `${a.id} reports to ${b.id} (${a.id} → ${b.id}) from 2026-01-01 to 2026-03-31; managers cannot form a cycle on any date`,
    );
    expect(await linesOf(b.id)).toEqual([]);
    // From the day A's line to B ended there is no loop.
    ok(await patch(b.id, { manager_id: a.id, manager_effective_from: "2026-04-01" }));
    expect(await linesOf(b.id)).toEqual([line(a.id, "2026-04-01")]);
  });

  it("a longer loop through everyone's history, refused in PUT naming lines[i].manager_id", async () => {
    const [a, b, c, d] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    // A under B in Q1 2026 only; B under C all along.
    ok(
      await put(a.id, [
        { manager_id: b.id, effective_from: "2026-01-01" },
        { manager_id: d.id, effective_from: "2026-04-01" },
      ]),
    );
    ok(await put(b.id, [{ manager_id: c.id, effective_from: "2025-01-01" }]));
    // C under A from 2025: C → A → B → C during Q1 2026.
    const res = await put(c.id, [
      { manager_id: null, effective_from: "2024-01-01" },
      { manager_id: a.id, effective_from: "2025-01-01" },
    ]);
    expect422(
      res,
      "lines[1].manager_id",
      new RegExp(`^${a.id} reports to ${c.id} \\(${a.id} → ${b.id} → ${c.id}\\) from 2026-01-01 to 2026-03-31;`),
    );
    // The same span ending before 2026 is fine.
    ok(
      await put(c.id, [
        { manager_id: a.id, effective_from: "2025-01-01" },
        { manager_id: null, effective_from: "2026-01-01" },
      ]),
    );
  });
});

describe("GET /users/{id}/reporting-lines", () => {
  it("whoever sees the user: a rep their own, a manager their team's; another rep's → 404", async () => {
    const manager = await signedInAs(t, { role: "manager" });
    const mine = await signedInAs(t, {
      role: "rep",
      manager_id: manager.user.id,
      manager_effective_from: "2026-02-01",
    });
    const other = await createUser(t, { role: "rep" });
    const read = (who: typeof manager, id: string) =>
      t.app.inject({ method: "GET", url: `/api/v1/users/${id}/reporting-lines`, headers: who.headers() });
    expect(ok(await read(mine, mine.user.id))).toEqual({ data: [line(manager.user.id, "2026-02-01")] });
    expect(ok(await read(manager, mine.user.id))).toEqual({ data: [line(manager.user.id, "2026-02-01")] });
    const hidden = await read(mine, other.id);
    expect(hidden.statusCode, hidden.body).toBe(404);
    expect(errorOf(hidden).code).toBe("not_found");
    expect((await read(manager, other.id)).statusCode).toBe(404);
    expect((await api.get("/users/usr_00000000000000000000000000/reporting-lines")).statusCode).toBe(404);
  });
});

describe("what other features read (users/index.ts)", () => {
  it("reportingLinesOf, reportingLinesBetween and everReportedTo", async () => {
    const [v, m, r] = [await createUser(t), await createUser(t), await createUser(t)];
    ok(await put(m.id, [{ manager_id: v.id, effective_from: "2026-01-01" }]));
    ok(
      await put(r.id, [
        { manager_id: m.id, effective_from: "2026-01-01" },
        { manager_id: v.id, effective_from: "2026-04-01" },
      ]),
    );
    const db = t.db.db;
    expect(await reportingLinesOf(db, r.id)).toEqual([
      line(m.id, "2026-01-01", "2026-03-31"),
      line(v.id, "2026-04-01"),
    ]);
    const mine = new Set([v.id, m.id, r.id]);
    const between = (from: string, to: string | null) =>
      reportingLinesBetween(db, from, to).then((rows) => rows.filter((row) => mine.has(row.user_id)));
    const q1 = { user_id: r.id, ...line(m.id, "2026-01-01", "2026-03-31") };
    const fromQ2 = { user_id: r.id, ...line(v.id, "2026-04-01") };
    const mUnderV = { user_id: m.id, ...line(v.id, "2026-01-01") };
    const expected = [q1, fromQ2, mUnderV].sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
    expect(await between("2026-03-31", "2026-04-01")).toEqual(expected);
    expect(await between("2026-02-01", "2026-02-28")).toEqual(expected.filter((x) => x !== fromQ2));
    expect(await between("2025-01-01", "2025-12-31")).toEqual([]);
    expect(await everReportedTo(db, v.id)).toEqual([m.id, r.id].sort());
    expect(await everReportedTo(db, m.id)).toEqual([r.id]);
    expect(await everReportedTo(db, r.id)).toEqual([]);
  });
});

describe("POST /imports/users stores manager_effective_from", () => {
  it("a row's manager counts from its date; a later date or one before the open line is the row's error", async () => {
    const boss = await createUser(t, { role: "manager" });
    const next = await createUser(t, { role: "manager" });
    const email = uniqueEmail("imp");
    const external = unique("ext");
    const file = csvOf([
      "external_id,name,email,manager_id,manager_effective_from",
      `${external},Ima Port,${email},${boss.email},2026-03-01`,
    ]);
    ok(await postCsv(t, "users", file));
    const created = ok<{ data: User[] }>(await api.get(`/users?email=${encodeURIComponent(email)}`)).data[0]!;
    expect(await linesOf(created.id)).toEqual([line(boss.id, "2026-03-01")]);

    const move = csvOf(["external_id,manager_id,manager_effective_from", `${external},${next.id},2026-08-01`]);
    expect(ok(await postCsv(t, "users", move))).toMatchObject({ updated: 1 });
    expect(await linesOf(created.id)).toEqual([line(boss.id, "2026-03-01", "2026-07-31"), line(next.id, "2026-08-01")]);

    const problems = csvOf([
      "external_id,manager_id,manager_effective_from",
      `${external},${boss.id},2026-07-01`,
      `,,2026-12-01`,
    ]);
    const dry = ok<{ errors: unknown[] }>(await postCsv(t, "users", problems, { query: "dry_run=true" }));
    expect(dry.errors).toEqual([
      {
        row: 2,
        field: "manager_effective_from",
        message: "must be on or after 2026-08-01, when the user's current reporting line starts",
      },
      { row: 3, field: "manager_effective_from", message: `must be today (${TODAY}) or earlier` },
      { row: 3, field: "email", message: "is required to create a user (the file has no email column)" },
      { row: 3, field: "name", message: "is required to create a user (the file has no name column)" },
    ]);
    const dateOnly = csvOf(["external_id,manager_effective_from", `${external},2026-09-01`]);
    const alone = ok<{ errors: unknown[] }>(await postCsv(t, "users", dateOnly, { query: "dry_run=true" }));
    expect(alone.errors).toEqual([
      {
        row: 2,
        field: "manager_effective_from",
        message: "is read only with manager_id: the file needs a manager_id column",
      },
    ]);
  });

  it("a cycle on a past date found while writing is the row's 422, nothing written", async () => {
    const [a, b] = [await createUser(t), await createUser(t, { external_id: unique("ext") })];
    ok(
      await put(a.id, [
        { manager_id: b.id, effective_from: "2026-01-01" },
        { manager_id: null, effective_from: "2026-04-01" },
      ]),
    );
    const file = csvOf(["external_id,manager_id,manager_effective_from", `${b.external_id},${a.id},2025-06-01`]);
    const res = await postCsv(t, "users", file);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).details?.map((d) => [d.param, d.row])).toEqual([["rows[2].manager_id", 2]]);
    expect(await linesOf(b.id)).toEqual([]);
  });
});
