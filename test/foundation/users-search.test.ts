import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamStatement } from "../../src/commissions/index.js";
import type { User } from "../../src/users/index.js";
import { createApiKey, createUser, unique } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

/** GET /users?q= (issue #28 "People searchable by name"): a substring of name or email, any case. */

let t: TestApp;
let reader: string;
let tag: string;
const people: Record<string, User> = {};

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  reader = (await createApiKey(t, "read")).key;
  tag = unique("srch")
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase();
  const manager = await createUser(t, { name: `Mara ${tag} Manager`, role: "manager" });
  people.manager = manager;
  people.ana = await createUser(t, { name: `Ana ${tag} Øberg`, email: `ana.x@${tag}.example`, manager_id: manager.id });
  people.percent = await createUser(t, { name: `Pat 100%_${tag}`, email: `pat@${tag}.example` });
  people.other = await createUser(t, {
    name: "Someone Else",
    email: `else.${[...tag].reverse().join("")}@other-mail.example`,
  });
});
afterAll(() => t?.close());

async function list(query: string, headers: Record<string, string> = bearer(reader)) {
  const res = await t.app.inject({ method: "GET", url: `/api/v1/users?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: User[]; meta: { total: number } };
}
const names = (page: { data: User[] }) => page.data.map((u) => u.name).sort();

describe("GET /users?q=", () => {
  it("matches a substring of the name or the email, case-insensitively, and counts only matches", async () => {
    const byName = await list(`q=${tag.toUpperCase()}`);
    expect(names(byName)).toEqual([people.ana!.name, people.manager!.name, people.percent!.name].sort());
    expect(byName.meta.total).toBe(3);
    expect(names(await list(`q=${encodeURIComponent("øBERG")}`))).toEqual([people.ana!.name]);
    expect(names(await list(`q=${[...tag].reverse().join("")}@OTHER-mail.EX`))).toEqual(["Someone Else"]);
    expect(names(await list(`q=ANA.X@`))).toEqual([people.ana!.name]);
  });

  it("takes %, _ and \\ literally", async () => {
    expect(names(await list(`q=${encodeURIComponent("100%_")}`))).toEqual([people.percent!.name]);
    expect((await list(`q=${encodeURIComponent(`%${tag}`)}`)).meta.total).toBe(0);
    expect((await list(`q=${encodeURIComponent(`_${tag}`)}`)).data.map((u) => u.id)).toEqual([people.percent!.id]);
    expect((await list(`q=${encodeURIComponent("\\")}`)).meta.total).toBe(0);
  });

  it("combines with the other filters and with what a person sees", async () => {
    expect(names(await list(`q=${tag}&role=manager`))).toEqual([people.manager!.name]);
    const s = await signedInAs(t, people.manager!);
    const seen = await list(`q=${tag}`, s.headers("GET"));
    expect(names(seen)).toEqual([people.ana!.name, people.manager!.name].sort());
    const rep = await signedInAs(t, people.ana!);
    expect(names(await list(`q=${tag}`, rep.headers("GET")))).toEqual([people.ana!.name]);
    expect((await list("q=Someone", rep.headers("GET"))).meta.total).toBe(0);
  });

  it("filters GET /users/statements the same way", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/v1/users/statements?period=2026-Q3&q=${tag}`,
      headers: bearer(reader),
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as { data: TeamStatement[] }).data;
    expect(rows.map((r) => r.user.name).sort()).toEqual(names(await list(`q=${tag}`)));
  });

  it("refuses an empty or over-long q like GET /deals' (422 naming q)", async () => {
    for (const q of ["", "x".repeat(201)]) {
      const res = await t.app.inject({ method: "GET", url: `/api/v1/users?q=${q}`, headers: bearer(reader) });
      expect(res.statusCode, q).toBe(422);
      expect(res.json().error.details[0].param).toBe("q");
    }
    expect((await list(`q=${"x".repeat(200)}`)).meta.total).toBe(0);
  });
});
