import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTurnFor } from "../../src/commissions/index.js";
import type { Ctx } from "../../src/context.js";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, dealBody, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/*
 * Changes to one person's deals wait their turn in the process before opening a transaction
 * (commissions/recalc/turns.ts), so a burst for one rep holds one pool connection, not all of them.
 */

const outside = { db: { isTransaction: false } } as unknown as Ctx;
const inside = { db: { isTransaction: true } } as unknown as Ctx;

describe("inTurnFor", () => {
  it("runs turns naming a common person one after another, in call order; others at once", async () => {
    const log: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = inTurnFor(outside, ["a", "b"], async () => {
      log.push("first starts");
      await gate;
      log.push("first ends");
    });
    const second = inTurnFor(outside, ["b"], async () => {
      log.push("second");
    });
    const third = inTurnFor(outside, ["c"], async () => {
      log.push("third");
    });
    await third;
    expect(log).toEqual(["first starts", "third"]);
    open();
    await Promise.all([first, second]);
    expect(log).toEqual(["first starts", "third", "first ends", "second"]);
  });

  it("a turn that throws still ends, and inside a transaction nothing waits", async () => {
    await expect(
      inTurnFor(outside, ["x"], async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await inTurnFor(outside, ["x"], async () => "next")).toBe("next");
    let open!: () => void;
    const held = inTurnFor(
      outside,
      ["y"],
      () =>
        new Promise<void>((resolve) => {
          open = resolve;
        }),
    );
    expect(await inTurnFor(inside, ["y"], async () => "nested")).toBe("nested");
    open();
    await held;
  });
});

describe("a burst of creates for one rep", () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await createTestApp();
    api = new Api(t);
  });
  afterAll(() => t.close());

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "never leaves a request waiting for a pool connection, and every deal is created",
    async () => {
      const plan = await createPlan(api);
      const rep = await createUser(t);
      await assign(api, plan.id, rep.id);
      let most = 0;
      let running = true;
      const watch = (async () => {
        while (running) {
          most = Math.max(most, t.db.waitingCount?.() ?? 0);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })();
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api.post("/deals", dealBody(rep.id, { close_date: `2026-08-${String(1 + (i % 28)).padStart(2, "0")}` })),
        ),
      );
      running = false;
      await watch;
      expect(made.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
      expect(new Set(made.map((r) => ok<DealDetail>(r, 201).id)).size).toBe(20);
      expect(most).toBe(0);
    },
    120_000,
  );
});
