import { afterAll, beforeAll, expect, it } from "vitest";
import { seedDemo } from "../../src/cli/seed-demo.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
});
afterAll(() => t.close());

it("seeds 20 reps, 3 plans, a SPIFF and 500 deals in every status, idempotently; never on live", async () => {
  const first = await seedDemo(t.ownerCtx());
  expect(first).toMatchObject({ users: 20, plans: 3, assignments: 20, spiffs: 1, deals: 500, created: 500 });
  for (const status of ["pending", "approved", "rejected", "disputed", "paid"] as const) {
    expect(first.statuses[status], status).toBeGreaterThan(0);
  }
  const lines = await t.db.db.selectFrom("commission_lines").select(["kind", "status", "locked"]).execute();
  expect(lines.some((l) => l.kind === "spiff")).toBe(true);
  expect(lines.filter((l) => l.status === "paid").every((l) => l.locked)).toBe(true);
  const again = await seedDemo(t.ownerCtx());
  expect(again).toEqual({ ...first, created: 0 });
  expect(
    Number(
      (
        await t.db.db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  ).toBe(20);
  await expect(seedDemo({ ...t.ownerCtx(), env: "live" })).rejects.toThrow(/live/);
});
