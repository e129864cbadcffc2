import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recalculateJobHandler } from "../../src/commissions/index.js";
import { setInlineLimit } from "../../src/commissions/testing.js";
import { createUser } from "../factories.js";
import { Api, assign, createDeal, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { runJobs as runJobsOf } from "../jobs-runner.js";

/**
 * A recalculation's `commission.calculated` events are rendered by PostgreSQL from the lines it wrote
 * (recalc/line-events-repository.ts). Each must be, as stored (jsonb text, what a webhook delivers), the
 * event the service rendered in JavaScript before: `{ previous_amount, object }`, the object being the
 * written line with status pending, unlocked, calculated now, in no payout run, its amount a JSON number.
 */

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(async () => {
  setInlineLimit(1000);
  await t.close();
});

interface LineRow {
  id: string;
  deal_id: string;
  user_id: string;
  plan_id: string | null;
  plan_version: number | null;
  spiff_id: string | null;
  kind: string;
  period: string;
  amount: string;
  status: string;
  explanation: unknown;
  calculated_at: Date;
  currency: string;
}

async function lines(): Promise<Map<string, LineRow>> {
  const rows = await t.db.db
    .selectFrom("commission_lines")
    .select([
      "id",
      "deal_id",
      "user_id",
      "plan_id",
      "plan_version",
      "spiff_id",
      "kind",
      "period",
      "amount",
      "status",
      "explanation",
      "calculated_at",
      "currency",
    ])
    .execute();
  return new Map(rows.map((r) => [r.id, r as LineRow]));
}

/** The event data as write-repository's emitLineEvents built it in JavaScript, from the line it wrote. */
function javascriptRendering(line: LineRow, previous: LineRow | undefined): string {
  const previousAmount = previous === undefined || previous.status === "void" ? null : Number(previous.amount);
  const object = {
    id: line.id,
    deal_id: line.deal_id,
    user_id: line.user_id,
    plan_id: line.plan_id,
    plan_version: line.plan_version,
    spiff_id: line.spiff_id,
    kind: line.kind,
    period: line.period,
    amount: Number(line.amount),
    status: "pending",
    locked: false,
    calculated_at: line.calculated_at.toISOString(),
    currency: line.currency,
    payout_run_id: null,
    draw_id: null,
  };
  const json = JSON.stringify(object);
  const withExplanation = `${json.slice(0, -1)},"explanation":${JSON.stringify(line.explanation)}}`;
  return `${JSON.stringify({ previous_amount: previousAmount }).slice(0, -1)},"object":${withExplanation}}`;
}

let seen = new Set<string>();

/**
 * The events written since the last call, each compared as jsonb text with the JavaScript rendering of
 * its line (`before`: the lines before the change) and with GET /commissions/{id}. Returns kind, user,
 * previous amount and amount of each, in event order.
 */
async function checkNewEvents(before: Map<string, LineRow>) {
  const { rows } = await t.db.db
    .selectFrom("events")
    .select(["id", "data"])
    .select((eb) => eb.cast<string>("data", "text").as("text"))
    .where("type", "=", "commission.calculated")
    .orderBy("id")
    .execute()
    .then((r) => ({ rows: r.filter((e) => !seen.has(e.id)) }));
  for (const r of rows) seen.add(r.id);
  const after = await lines();
  const out: [string, string, number | null, number][] = [];
  for (const r of rows) {
    const data = r.data as { previous_amount: number | null; object: { id: string; kind: string; user_id: string } };
    const line = after.get(data.object.id)!;
    const expected = await t.db.db
      .selectNoFrom((eb) =>
        eb.cast<string>(eb.cast(eb.val(javascriptRendering(line, before.get(line.id))), "jsonb"), "text").as("text"),
      )
      .executeTakeFirstOrThrow();
    expect(r.text).toBe(expected.text);
    expect(data.object).toEqual(ok(await api.get(`/commissions/${line.id}`)));
    out.push([data.object.kind, data.object.user_id, data.previous_amount, Number(line.amount)]);
  }
  return out;
}

const runJobs = () => runJobsOf(t.db.db, { recalculate: recalculateJobHandler });

describe("commission.calculated events of a recalculation", () => {
  it("are, for plan, SPIFF and override lines, new and changed, inline and in a job, the JavaScript rendering", async () => {
    const max = await createUser(t, { name: "Max", role: "manager" });
    const rui = await createUser(t, { name: "Rui" });
    const ada = await createUser(t, { name: "Ada" });
    for (const rep of [rui, ada])
      ok(await api.patch(`/users/${rep.id}`, { manager_id: max.id, manager_effective_from: "2026-01-01" }));
    const override = ok<{ id: string }>(
      await api.post("/comp-plans", {
        name: "Max override",
        kind: "override",
        period: "quarter",
        effective_from: "2026-01-01",
        override_levels: [{ depth: 1, rate: 0.03 }],
      }),
      201,
    );
    await assign(api, override.id, max.id);
    const plan = await createPlan(api, { quota: 100000, tiers: [{ from_attainment: 0, rate: 0.1 }] });
    await assign(api, plan.id, rui.id);
    await assign(api, plan.id, ada.id);
    const eur = await createPlan(api, { currency: "EUR", quota: null, tiers: [], base_rate: 0.05 });
    const eve = await createUser(t, { name: "Eve" });
    await assign(api, eur.id, eve.id);
    const spiff = ok<{ id: string }>(
      await api.post("/spiffs", {
        name: "Push",
        starts_on: "2026-01-01",
        ends_on: "2026-12-31",
        payout: { type: "rate", rate: 0.02 },
      }),
      201,
    );
    seen = new Set((await t.db.db.selectFrom("events").select("id").execute()).map((e) => e.id));

    // New lines, inline: previous_amount null. 12,345.67: plan 10% 1,234.567 → 1,234.57, SPIFF 2% 246.91,
    // override 3% 370.37; split 60/40 (credits 6,000.498 and 4,000.332): plan 600.05 / 400.03, SPIFF 120.01 / 80.01,
    // override 3% of 10,000.83 = 300.02 (one line for both credits); EUR 1,007.00 at 5%: 50.35.
    let before = await lines();
    await createDeal(api, rui.id, { arr_amount: 12345.67, close_date: "2026-02-10" });
    await createDeal(api, rui.id, {
      arr_amount: 10000.83,
      close_date: "2026-02-11",
      splits: [
        { user_id: rui.id, percent: 60 },
        { user_id: ada.id, percent: 40 },
      ],
    });
    await createDeal(api, eve.id, { arr_amount: 1007, currency: "EUR", close_date: "2026-02-12" });
    const created = await checkNewEvents(before);
    expect(created.sort()).toEqual(
      [
        ["plan", rui.id, null, 1234.57],
        ["spiff", rui.id, null, 246.91],
        ["override", max.id, null, 370.37],
        ["plan", rui.id, null, 600.05],
        ["plan", ada.id, null, 400.03],
        ["spiff", rui.id, null, 120.01],
        ["spiff", ada.id, null, 80.01],
        ["override", max.id, null, 300.02],
        ["plan", eve.id, null, 50.35],
      ].sort(),
    );

    // Changed lines in a job (the inline limit lowered): previous_amount the amount before.
    setInlineLimit(1);
    before = await lines();
    ok(await api.patch(`/comp-plans/${override.id}`, { override_levels: [{ depth: 1, rate: 0.045 }] }));
    ok(await api.patch(`/spiffs/${spiff.id}`, { payout: { type: "rate", rate: 0.025 } }));
    ok(await api.patch(`/comp-plans/${plan.id}`, { tiers: [{ from_attainment: 0, rate: 0.125 }] }));
    await runJobs();
    const changed = await checkNewEvents(before);
    expect(changed.sort()).toEqual(
      [
        ["override", max.id, 370.37, 555.56],
        ["override", max.id, 300.02, 450.04],
        ["spiff", rui.id, 246.91, 308.64],
        ["spiff", rui.id, 120.01, 150.01],
        ["spiff", ada.id, 80.01, 100.01],
        ["plan", rui.id, 1234.57, 1543.21],
        ["plan", rui.id, 600.05, 750.06],
        ["plan", ada.id, 400.03, 500.04],
      ].sort(),
    );
    setInlineLimit(1000);

    // A rename rewrites the SPIFF lines' explanations, not their amounts: no event (API.md §6, "lines whose
    // amount changed"), though the stored amount ("308.640") and the written one ("308.64") differ as text.
    before = await lines();
    ok(await api.patch(`/spiffs/${spiff.id}`, { name: "Spring push" }));
    const renamed = [...(await lines()).values()].filter((l) => l.kind === "spiff");
    expect(renamed.map((l) => [l.amount === before.get(l.id)!.amount, JSON.stringify(l.explanation)])).toEqual(
      renamed.map(() => [true, expect.stringContaining('"spiff_name":"Spring push"')]),
    );
    expect(await checkNewEvents(before)).toEqual([]);
  });
});
