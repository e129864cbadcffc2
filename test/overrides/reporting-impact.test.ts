import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/** POST /users/{id}/reporting-lines/impact refuses what PATCH and PUT refuse, and writes nothing (API.md §16). */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

describe("reporting impact: bad bodies", () => {
  it("one of manager_id or lines; checked as the writes check them; nothing stored", async () => {
    const rep = await createUser(t);
    const boss = await createUser(t, { role: "manager" });
    const url = `/users/${rep.id}/reporting-lines/impact`;
    const cases: [unknown, string][] = [
      [{}, "manager_id"],
      [{ manager_id: boss.id, lines: [] }, "lines"],
      [{ manager_effective_from: "2026-01-01" }, "manager_id"],
      [{ lines: [], manager_effective_from: "2026-01-01" }, "manager_effective_from"],
      [{ manager_id: rep.id }, "manager_id"],
      [{ manager_id: unknownId("usr") }, "manager_id"],
      [{ manager_id: boss.id, manager_effective_from: "2099-01-01" }, "manager_effective_from"],
      [{ lines: [{ manager_id: rep.id, effective_from: "2026-01-01" }] }, "lines[0].manager_id"],
    ];
    for (const [body, param] of cases) {
      const res = await api.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(errorOf(res).details?.map((d) => d.param)).toContain(param);
    }
    expect((await api.post(`/users/${unknownId("usr")}/reporting-lines/impact`, { manager_id: null })).statusCode).toBe(
      404,
    );
    const ok = await api.post(url, { manager_id: boss.id, manager_effective_from: "2026-01-01" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      user_id: rep.id,
      lines_before: [],
      lines_after: [{ manager_id: boss.id, effective_from: "2026-01-01", effective_to: null }],
      summary: { users: 0, deals: 0, lines: 0, pending_delta: 0, locked_delta: 0 },
    });
    expect((await api.get(`/users/${rep.id}/reporting-lines`)).json()).toEqual({ data: [] });
    expect((await api.get(`/users/${rep.id}`)).json().manager_id).toBeNull();
  });
});
