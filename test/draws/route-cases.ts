import { createDraw } from "../../src/draws/index.js";
import { createPayoutRun } from "../../src/payout-runs/index.js";
import { createUser } from "../factories.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of draws (API.md §18). */

let userId = "";
let month = 0;

/** Gives POST /draws a person to name before any row's `record` ran. */
export async function prepareDrawRouteCases(t: TestApp): Promise<void> {
  userId = (await createUser(t)).id;
}

/** A month of its own far ahead, so no two calls overlap. */
function nextMonth(): { starts_on: string; ends_on: string } {
  const year = 2100 + Math.floor(month / 12);
  const m = String((month % 12) + 1).padStart(2, "0");
  month += 1;
  const last = new Date(Date.UTC(year, Number(m), 0)).getUTCDate();
  return { starts_on: `${year}-${m}-01`, ends_on: `${year}-${m}-${last}` };
}

const drawBody = (user: string) => ({
  user_id: user,
  kind: "recoverable" as const,
  amount: "1000",
  currency: "USD",
  period: "month" as const,
  ...nextMonth(),
});

export const newDraw = async (t: TestApp) => (await createDraw(t.ownerCtx(), drawBody((await createUser(t)).id))).id;

/** A draw of 2090–2099 for the end row: ending it on 2095-12-31 is always allowed. */
const longDraw = async (t: TestApp) =>
  (
    await createDraw(t.ownerCtx(), {
      ...drawBody((await createUser(t)).id),
      starts_on: "2090-01-01",
      ends_on: "2099-12-31",
    })
  ).id;

/** A draw with a balance: its January 2020 advanced by a draft run (no earnings), big enough for every forgiveness. */
export const drawWithBalance = async (t: TestApp) => {
  const user = (await createUser(t)).id;
  const draw = await createDraw(t.ownerCtx(), {
    ...drawBody(user),
    amount: "1000000",
    starts_on: "2020-01-01",
    ends_on: "2020-01-31",
  });
  await createPayoutRun(t.ownerCtx(), { through: "2020-01-31", pay_date: "2020-02-05", user_ids: [user] });
  return draw.id;
};

export const DRAW_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/draws",
    scope: "read",
    ok: 200,
    invalid: { query: "status=open", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/draws/{id}",
    scope: "read",
    ok: 200,
    record: newDraw,
    idPrefix: "draw",
    invalid: { id: "d".repeat(256), param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/draws",
    scope: "admin",
    ok: 201,
    body: () => ({ ...drawBody(userId), amount: 1000 }),
    invalid: { body: { ...drawBody("usr_x"), amount: 1000, period: "week" }, param: "period" },
  },
  {
    method: "POST",
    path: "/api/v1/draws/{id}/end",
    scope: "admin",
    ok: 200,
    record: longDraw,
    idPrefix: "draw",
    body: () => ({ effective_date: "2095-12-31" }),
    invalid: { body: { effective_date: "2026-02-30" }, param: "effective_date" },
  },
  {
    method: "POST",
    path: "/api/v1/draws/{id}/forgive",
    scope: "admin",
    ok: 200,
    record: drawWithBalance,
    idPrefix: "draw",
    body: () => ({ amount: 1, reason: "Welcome bonus" }),
    invalid: { body: { reason: "" }, param: "reason" },
  },
];
