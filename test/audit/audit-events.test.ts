import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/audit/schema.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
const clock = new TestClock();
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => t.close());

describe("GET /audit-events", () => {
  it("lists every change with actor, before/after and request id, filtered, newest first", async () => {
    const admin = await t.key("admin", "Ops admin"); // created by the owner: an owner-cli audit row
    clock.advance(1000);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: bearer(admin.key),
      payload: { name: "Al", email: "al@example.com" },
    });
    const userId = created.json().id;
    clock.advance(1000);
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${userId}`,
      headers: bearer(admin.key),
      payload: { name: "Alan" },
    });
    expect(patched.statusCode).toBe(200);

    const res = await t.app.inject({
      method: "GET",
      url: `/api/v1/audit-events?resource=user&resource_id=${userId}`,
      headers: bearer(admin.key),
    });
    expect(res.statusCode).toBe(200);
    const events: AuditEvent[] = res.json().data;
    expect(events.map((e) => e.action)).toEqual(["user.update", "user.create"]);
    expect(events[0]).toMatchObject({
      actor: { type: "api_key", id: admin.id, name: "Ops admin" },
      resource: "user",
      resource_id: userId,
      before: { name: "Al" },
      after: { name: "Alan" },
      request_id: patched.headers["request-id"],
      created_at: "2026-11-22T10:00:02.000Z",
    });
    expect(events[1]!.before).toBeNull();

    const owner = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit-events?actor=owner-cli&resource=api_key",
      headers: bearer(admin.key),
    });
    expect(owner.json().data.map((e: AuditEvent) => [e.action, e.resource_id, e.actor.name])).toEqual([
      ["api_key.create", admin.id, "owner-cli"],
    ]);
    expect(JSON.stringify(owner.json())).not.toContain(admin.key);

    const since = await t.app.inject({
      method: "GET",
      url: "/api/v1/audit-events?since=2026-11-22T10:00:02.000Z",
      headers: bearer(admin.key),
    });
    expect(since.json().data.map((e: AuditEvent) => e.action)).toEqual(["user.update"]);
  });

  it("is admin only, and there is no way to change an audit row", async () => {
    const writer = await t.key("write");
    const res = await t.app.inject({ method: "GET", url: "/api/v1/audit-events", headers: bearer(writer.key) });
    expect(res.statusCode).toBe(403);
    const admin = await t.key("admin");
    const del = await t.app.inject({ method: "DELETE", url: "/api/v1/audit-events", headers: bearer(admin.key) });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe("GET");
  });
});
