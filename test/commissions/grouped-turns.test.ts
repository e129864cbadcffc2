import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GroupedWork, inGroupedTurnFor, inTurnFor } from "../../src/commissions/index.js";
import type { Ctx } from "../../src/context.js";
import type { DealDetail } from "../../src/deals/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, dealBody, ok } from "../factories-commissions.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

/*
 * Group commit (commissions/recalc/shared-turns.ts): calls for the same people that arrive while an
 * earlier turn of theirs runs wait together and run as one; when the group fails, each member runs
 * alone and gets its own answer. createDeal uses it: a burst of creates for one rep recomputes the
 * rep's bucket once per group instead of once per create (bench/hot-bucket.mjs).
 */

const outside = (name: string) => ({ db: { isTransaction: false }, name }) as unknown as Ctx & { name: string };
const inside = { db: { isTransaction: true } } as unknown as Ctx;
const nameOf = (ctx: Ctx) => (ctx as Ctx & { name: string }).name;

/** A work whose calls are logged: `many` as one entry naming its members in order. */
function loggedWork(refuse: (input: string) => boolean = () => false) {
  const log: string[] = [];
  const work: GroupedWork<string, string> = {
    kind: "test",
    one: async (ctx, input) => {
      log.push(`one ${input} as ${nameOf(ctx)}`);
      if (refuse(input)) throw new Error(`${input} refused`);
      return `${input} done`;
    },
    many: async (members) => {
      log.push(`many ${members.map((m) => `${m.input} as ${nameOf(m.ctx)}`).join(", ")}`);
      if (members.some((m) => refuse(m.input))) throw new Error("the group is refused");
      return members.map((m) => `${m.input} done together`);
    },
  };
  return { log, work };
}

/** Holds the people's turn, once it has started, until `open` is called. */
async function holdTurn(people: string[]) {
  let open!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const held = inTurnFor(
    outside("holder"),
    people,
    () =>
      new Promise<void>((resolve) => {
        open = resolve;
        started();
      }),
  );
  await running;
  return { held, open: () => open() };
}

describe("inGroupedTurnFor", () => {
  it("calls that wait for the same people run as one group, in arrival order, each answered with its own result", async () => {
    const { log, work } = loggedWork();
    const turn = await holdTurn(["rep"]);
    const calls = ["a", "b", "c"].map((input) => inGroupedTurnFor(outside(`req-${input}`), ["rep"], input, work));
    // Another person's call is not held, and is not in their group.
    expect(await inGroupedTurnFor(outside("req-x"), ["someone else"], "x", work)).toBe("x done");
    expect(log).toEqual(["one x as req-x"]);
    turn.open();
    await turn.held;
    expect(await Promise.all(calls)).toEqual(["a done together", "b done together", "c done together"]);
    expect(log).toEqual(["one x as req-x", "many a as req-a, b as req-b, c as req-c"]);
  });

  it("a call that finds nobody waiting runs alone; one arriving once a group has started waits for the next group", async () => {
    const { log, work } = loggedWork();
    expect(await inGroupedTurnFor(outside("first"), ["rep"], "a", work)).toBe("a done");
    const turn = await holdTurn(["rep"]);
    const second = inGroupedTurnFor(outside("second"), ["rep"], "b", work);
    const third = inGroupedTurnFor(outside("third"), ["rep"], "c", work);
    turn.open();
    await turn.held;
    expect(await Promise.all([second, third])).toEqual(["b done together", "c done together"]);
    expect(log).toEqual(["one a as first", "many b as second, c as third"]);
  });

  it("a refused group runs its members one at a time: the refused one gets its error, the others their results", async () => {
    const { log, work } = loggedWork((input) => input === "b");
    const turn = await holdTurn(["rep"]);
    const calls = ["a", "b", "c"].map((input) =>
      inGroupedTurnFor(outside(`req-${input}`), ["rep"], input, work).then(
        (result) => ({ result }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    turn.open();
    await turn.held;
    expect(await Promise.all(calls)).toEqual([{ result: "a done" }, { error: "b refused" }, { result: "c done" }]);
    expect(log).toEqual([
      "many a as req-a, b as req-b, c as req-c",
      "one a as req-a",
      "one b as req-b",
      "one c as req-c",
    ]);
  });

  it("groups by the kind of call and the set of people, in any order and with repeats", async () => {
    const { log, work } = loggedWork();
    const other = { ...loggedWork().work, kind: "other" };
    const turn = await holdTurn(["rep", "manager"]);
    const calls = [
      inGroupedTurnFor(outside("r1"), ["rep", "manager"], "a", work),
      inGroupedTurnFor(outside("r2"), ["manager", "rep", "rep"], "b", work),
      inGroupedTurnFor(outside("r3"), ["rep"], "c", work),
      inGroupedTurnFor(outside("r4"), ["rep", "manager"], "d", other),
    ];
    turn.open();
    await turn.held;
    expect(await Promise.all(calls)).toEqual(["a done together", "b done together", "c done", "d done"]);
    expect(log).toEqual(["many a as r1, b as r2", "one c as r3"]);
  });

  it("inside a transaction a call runs alone at once", async () => {
    const { log, work } = loggedWork();
    const turn = await holdTurn(["rep"]);
    expect(await inGroupedTurnFor(inside, ["rep"], "a", work)).toBe("a done");
    turn.open();
    await turn.held;
    expect(log).toHaveLength(1);
  });
});

describe("a burst of creates for one rep, grouped", () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await createTestApp();
    api = new Api(t);
  });
  afterAll(() => t.close());

  it("gives every line the same deals get created one at a time, and each deal its own request's audit row and event", async () => {
    const plan = await createPlan(api);
    const [burst, oneByOne] = [await createUser(t), await createUser(t)];
    await assign(api, plan.id, burst.id);
    await assign(api, plan.id, oneByOne.id);
    const keys = [await t.key("write", "burst-a"), await t.key("write", "burst-b")];
    const bodies = Array.from({ length: 24 }, (_, i) => ({
      opportunity_name: `Burst ${i}`,
      arr_amount: 10_000 + ((i * 7919) % 50) * 1_000 + 0.01 * i,
      close_date: `2026-08-${String(28 - (i % 28)).padStart(2, "0")}`,
    }));
    const responses = await Promise.all(
      bodies.map((body, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/deals",
          headers: bearer(keys[i % 2]!.key),
          payload: { ...body, owner_id: burst.id },
        }),
      ),
    );
    const made = responses.map((res) => ok<DealDetail>(res, 201));
    // Each caller gets its own deal, with its own lines as they stand once its group committed.
    expect(made.map((d) => d.opportunity_name)).toEqual(bodies.map((b) => b.opportunity_name));
    expect(new Set(made.map((d) => d.id)).size).toBe(bodies.length);
    for (const deal of made) expect(deal.commissions.map((c) => c.deal_id)).toEqual([deal.id]);

    // Each deal's audit row and deal.created event are its own request's: its key, its Request-Id.
    const audits = await t.db.db
      .selectFrom("audit_events")
      .select(["resource_id", "actor_id", "request_id"])
      .where("action", "=", "deal.create")
      .where(
        "resource_id",
        "in",
        made.map((d) => d.id),
      )
      .execute();
    const auditOf = new Map(audits.map((a) => [a.resource_id, a]));
    made.forEach((deal, i) => {
      expect(auditOf.get(deal.id)).toEqual({
        resource_id: deal.id,
        actor_id: keys[i % 2]!.id,
        request_id: responses[i]!.headers["request-id"],
      });
    });
    const created = await t.db.db
      .selectFrom("events")
      .select(["created_at", "data"])
      .where("type", "=", "deal.created")
      .execute();
    for (const deal of made) {
      const event = created.find((e) => (e.data as { object: { id: string } }).object.id === deal.id)!;
      expect((event.data as { object: DealDetail }).object.created_at).toBe(deal.created_at);
    }

    // The same deals, one at a time in the order they were created, for a second rep on the same plan.
    const order = made
      .map((d, i) => ({ d, i }))
      .sort((a, b) => (a.d.created_at + a.d.id < b.d.created_at + b.d.id ? -1 : 1));
    const replayed = new Map<number, DealDetail>();
    for (const { i } of order)
      replayed.set(i, ok<DealDetail>(await api.post("/deals", { ...bodies[i], owner_id: oneByOne.id }), 201));
    const linesOf = async (dealId: string) =>
      (
        await t.db.db
          .selectFrom("commission_lines")
          .select(["kind", "amount", "explanation"])
          .where("deal_id", "=", dealId)
          .where("status", "<>", "void")
          .execute()
      ).map((l) => JSON.stringify({ ...l, amount: String(Number(l.amount)) }).replace(/deal_[0-9A-Za-z]+/g, "deal"));
    for (let i = 0; i < bodies.length; i++) {
      const lines = await linesOf(made[i]!.id);
      expect(lines).toHaveLength(1);
      expect(lines).toEqual(await linesOf(replayed.get(i)!.id));
    }
    const total = (deals: DealDetail[]) => deals.reduce((sum, d) => sum + Math.round(d.total_commission * 100), 0);
    const stored = async (ids: string[]) =>
      (await t.db.db.selectFrom("deals").select(["total_commission"]).where("id", "in", ids).execute()).reduce(
        (sum, d) => sum + Math.round(Number(d.total_commission) * 100),
        0,
      );
    expect(await stored(made.map((d) => d.id))).toBe(await stored([...replayed.values()].map((d) => d.id)));
    expect(total([...replayed.values()])).toBeGreaterThan(0);
  }, 120_000);

  it("a create refused in a group (an external_id taken by another in the burst) is refused alone; the others are created", async () => {
    const plan = await createPlan(api);
    const rep = await createUser(t);
    await assign(api, plan.id, rep.id);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.post(
          "/deals",
          dealBody(rep.id, {
            external_id: i % 4 === 3 ? `grouped-${rep.id}-taken` : `grouped-${rep.id}-${i}`,
            close_date: `2026-08-${String(1 + i).padStart(2, "0")}`,
          }),
        ),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json().error.code])).toEqual([
      [409, "conflict"],
      [409, "conflict"],
    ]);
    const stored = await t.db.db.selectFrom("deals").select(["external_id"]).where("owner_id", "=", rep.id).execute();
    expect(stored).toHaveLength(10);
    expect(new Set(stored.map((d) => d.external_id)).size).toBe(10);
  }, 120_000);
});
