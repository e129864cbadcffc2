import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "../../src/http/pagination.js";
import type { User } from "../../src/users/index.js";
import { createUser, errorOf, unique, uniqueEmail } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { csvOf, postCsv } from "./support.js";

/** POST /imports/users: matching, managers in the same file, privileges, cycles. */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t, "admin");
});
afterAll(() => t.close());

const userBy = async (email: string) =>
  ok<Page<User>>(await api.get(`/users?email=${encodeURIComponent(email)}`)).data[0]!;

describe("POST /imports/users", () => {
  it("a manager named by the email of a row further down the file: created first, then the row reporting to it", async () => {
    const [rep, boss, top] = [uniqueEmail("rep"), uniqueEmail("boss"), uniqueEmail("top")];
    const existing = await createUser(t, { role: "manager" });
    const file = csvOf([
      "external_id,name,email,role,manager_id,manager_effective_from,payroll_id",
      `${unique("ext")},Rita Rep,${rep},rep,${boss.toUpperCase()},2026-01-01,${unique("pay")}`,
      `,Bo Boss,${boss},manager,${top},,`,
      `,Tia Top,${top},manager,${existing.id},,`,
    ]);
    const dry = ok(await postCsv(t, "users", file, { query: "dry_run=true" }));
    expect(dry).toMatchObject({ created: 3, errors: [], rows: [{ row: 2, action: "create" }, { row: 3 }, { row: 4 }] });
    expect(ok(await postCsv(t, "users", file))).toEqual({
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
      recalculation_job_id: null,
    });
    const [r, b, tp] = [await userBy(rep), await userBy(boss), await userBy(top)];
    expect([r.manager_id, b.manager_id, tp.manager_id]).toEqual([b.id, tp.id, existing.id]);
    expect([r.name, r.role, r.active, b.external_id, b.payroll_id]).toEqual(["Rita Rep", "rep", true, null, null]);
    // The same file again changes nothing.
    expect(ok(await postCsv(t, "users", file))).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it("matches by external_id, else by email; a missing column keeps the stored value", async () => {
    const byExternal = await createUser(t, { external_id: unique("ext"), name: "Old Name" });
    const byEmail = await createUser(t, { name: "Other" });
    const newEmail = uniqueEmail("moved");
    const file = csvOf([
      "external_id,name,email",
      `${byExternal.external_id},New Name,${newEmail}`,
      `,Other Renamed,${byEmail.email.toUpperCase()}`,
    ]);
    expect(ok(await postCsv(t, "users", file, { query: "dry_run=true" }))).toMatchObject({
      created: 0,
      updated: 2,
      rows: [
        { row: 2, external_id: byExternal.external_id, action: "update" },
        { row: 3, external_id: null, action: "update" },
      ],
    });
    ok(await postCsv(t, "users", file));
    expect(await userBy(newEmail)).toMatchObject({ id: byExternal.id, name: "New Name", role: "rep" });
    expect(await userBy(byEmail.email)).toMatchObject({ id: byEmail.id, name: "Other Renamed" });
  });

  it("under a write key, rows needing admin scope are row errors; an admin key imports them", async () => {
    const rep = await createUser(t);
    const file = csvOf([
      "name,email,role,active",
      `Fay Finance,${uniqueEmail("fin")},finance,`,
      `${rep.name},${rep.email},manager,false`,
      `Ned New,${uniqueEmail("ned")},manager,true`,
    ]);
    const res = ok(await postCsv(t, "users", file, { query: "dry_run=true" }));
    expect(res).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      errors: [
        { row: 2, field: "role", message: 'Setting role to "finance" needs the admin scope; this key has write' },
        { row: 3, field: "role", message: "Changing role needs the admin scope; this key has write" },
        { row: 3, field: "active", message: "Changing active needs the admin scope; this key has write" },
      ],
      rows: [
        { row: 2, external_id: null, action: "error" },
        { row: 3, external_id: null, action: "error" },
        { row: 4, external_id: null, action: "create" },
      ],
    });
    const refused = await postCsv(t, "users", file);
    expect(errorOf(refused).details?.map((d) => d.param)).toEqual(["rows[2].role", "rows[3].role", "rows[3].active"]);
    const { key } = await t.key("admin");
    expect(ok(await postCsv(t, "users", file, { key }))).toMatchObject({ created: 2, updated: 1 });
    expect(await userBy(rep.email)).toMatchObject({ role: "manager", active: false });
  });

  it("cycles, unknown managers, oneself, repeats, a bad date or boolean, a taken email → row errors", async () => {
    const a = await createUser(t, { role: "manager" });
    const b = await createUser(t, { role: "manager", manager_id: a.id });
    const taken = await createUser(t);
    const dup = uniqueEmail("dup");
    const file = csvOf([
      "name,email,manager_id,manager_effective_from,active",
      `${a.name},${a.email},${b.email},,`,
      `Ghost Report,${uniqueEmail("g")},ghost@example.com,,`,
      `Self,${uniqueEmail("self")},usr_00000000000000000000000000,2026-02-30,yes`,
      `Dup One,${dup},,,`,
      `Dup Two,${dup.toUpperCase()},,,`,
    ]);
    const res = ok<{ errors: unknown[] }>(await postCsv(t, "users", file, { query: "dry_run=true" }));
    expect(res.errors).toEqual([
      { row: 2, field: "manager_id", message: `would form a cycle: ${a.id} → ${b.id} → ${a.id}` },
      { row: 3, field: "manager_id", message: "no user has the email ghost@example.com (stored or in this file)" },
      { row: 4, field: "manager_effective_from", message: "must be a real calendar date" },
      { row: 4, field: "active", message: "must be true or false" },
      { row: 4, field: "manager_id", message: "user usr_00000000000000000000000000 does not exist" },
      { row: 6, field: "email", message: `repeats row 5 (${dup.toUpperCase()}); each user once per file` },
    ]);
    const moved = await createUser(t, { external_id: unique("ext") });
    const clash = ok<{ errors: unknown[] }>(
      await postCsv(t, "users", csvOf(["external_id,email", `${moved.external_id},${taken.email}`]), {
        query: "dry_run=true",
      }),
    );
    expect(clash.errors).toEqual([
      { row: 2, field: "email", message: `${taken.email} is already ${taken.id}'s (${taken.email})` },
    ]);
    const self = ok<{ errors: unknown[] }>(
      await postCsv(t, "users", csvOf(["email,manager_id", `${a.email},${a.email}`]), { query: "dry_run=true" }),
    );
    expect(self.errors).toEqual([{ row: 2, field: "manager_id", message: "cannot be the user itself" }]);
  });
});
