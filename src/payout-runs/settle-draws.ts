import type { Tx } from "../context.js";
import { earningLabels, periodsBetween } from "../draws/index.js";
import { newId } from "../ids.js";
import { type Fixed, gt, max, min, minus, moneyText, parse, plus, sign, ZERO } from "../money/index.js";
import * as draws from "./draws-repository.js";
import { netSums } from "./netting.js";
import * as payees from "./payees-repository.js";

// Draw settlement in a run (API.md §18), after the run took its lines and before its payees are netted:
// each unsettled period ending by `through` advances max(0, amount − E); recoverable balances are then
// recovered, oldest draw first, after §13's deficit recovery, from what the payee nets so far.

export interface RunScope {
  id: string;
  through: string;
  currency: string | null;
  userIds: string[] | null;
  percent: string;
  at: Date;
}

/** A stored run's scope, for settling it again at finalize. */
export function scopeOf(
  run: {
    id: string;
    through: string;
    currency: string | null;
    user_ids: string[] | null;
    max_recovery_percent: string;
  },
  at: Date,
): RunScope {
  return {
    id: run.id,
    through: run.through,
    currency: run.currency,
    userIds: run.user_ids,
    percent: run.max_recovery_percent,
    at,
  };
}

interface Settled {
  label: string;
  earned: Fixed;
}

/**
 * Settles the draws the run reaches. `counting`: the balances and deficits of other drafts count when a
 * draft is created, only finalized runs when it is finalized (its own settlement recomputed first).
 */
export async function settleDraws(
  tx: Tx,
  run: RunScope,
  counting: "finalized" | "finalized and drafts",
): Promise<void> {
  const reached = await draws.drawsOfRun(tx, { through: run.through, currency: run.currency, userIds: run.userIds });
  if (reached.length === 0) return;
  const ids = reached.map((d) => d.id);
  const drafts = counting === "finalized and drafts";
  const [settled, before] = await Promise.all([draws.settledPeriods(tx, ids), draws.balances(tx, ids, run.id, drafts)]);
  const balance = new Map(ids.map((id) => [id, parse(before.get(id) ?? "0")]));
  const settledHere = new Map<string, Settled[]>();
  const text = (d: draws.SettledDraw, a: Fixed) => moneyText(a, d.currency);

  // Advances, period by period.
  for (const d of reached) {
    const amount = parse(d.amount);
    const here: Settled[] = [];
    for (const p of periodsBetween(d.starts_on, d.ends_on, d.period)) {
      if (p.ends_on > run.through || settled.get(d.id)!.has(p.label)) continue;
      const earned = parse(await draws.earned(tx, run.id, d, earningLabels(p.label)));
      const advance = max(ZERO, minus(amount, earned));
      here.push({ label: p.label, earned });
      settled.get(d.id)!.add(p.label);
      await draws.insertPeriod(tx, {
        draw_id: d.id,
        period: p.label,
        ends_on: p.ends_on,
        payout_run_id: run.id,
        earned: text(d, earned),
        advance: text(d, advance),
      });
      if (sign(advance) <= 0) continue;
      const lineId = newId("com", run.at.getTime());
      const was = balance.get(d.id)!;
      const now = d.kind === "recoverable" ? plus(was, advance) : was;
      await draws.insertDrawLine(tx, {
        id: lineId,
        user_id: d.user_id,
        currency: d.currency,
        draw_id: d.id,
        period: p.label,
        amount: text(d, advance),
        explanation: {
          summary: `Draw ${d.id} guarantees ${text(d, amount)} ${d.currency} for ${p.label}; earned ${text(d, earned)}, advance ${text(d, advance)}`,
          draw_id: d.id,
          period: p.label,
          amount: text(d, amount),
          earned: text(d, earned),
          advance: text(d, advance),
          balance_before: text(d, d.kind === "recoverable" ? was : ZERO),
          balance_after: text(d, d.kind === "recoverable" ? now : ZERO),
        },
        payout_run_id: run.id,
        at: run.at,
      });
      await draws.insertEntry(tx, {
        id: newId("drwe", run.at.getTime()),
        draw_id: d.id,
        type: "advance",
        amount: text(d, advance),
        line_id: lineId,
        payout_run_id: run.id,
        reason: null,
        created_at: run.at,
      });
      balance.set(d.id, now);
    }
    settledHere.set(d.id, here);
  }

  // Recoveries, oldest draw first, from what each payee nets after the deficit recovery.
  const recovering = reached.filter(
    (d) => d.kind === "recoverable" && d.recovery_starts_on! <= run.through && gt(balance.get(d.id)!, ZERO),
  );
  if (recovering.length === 0) return;
  const sums = new Map((await payees.sumsOfRun(tx, run.id)).map((g) => [`${g.user_id} ${g.currency}`, g.sums]));
  const userIds = [...new Set(recovering.map((d) => d.user_id))];
  const owed = await payees.deficits(tx, userIds, drafts ? { except: run.id } : null);
  const net = new Map<string, Fixed>();
  for (const d of recovering) {
    const key = `${d.user_id} ${d.currency}`;
    if (!net.has(key)) {
      const s = sums.get(key);
      net.set(key, s ? parse(netSums(s, owed.get(key) ?? "0", run.percent, d.currency).net_pay) : ZERO);
    }
    const n = net.get(key)!;
    const was = balance.get(d.id)!;
    const all = periodsBetween(d.starts_on, d.ends_on, d.period);
    const over = all.every((p) => settled.get(d.id)!.has(p.label));
    const here = settledHere.get(d.id)!;
    const amount = parse(d.amount);
    let room: Fixed;
    // A run settling periods keeps their guarantee (the last one's too); later runs recover from anything.
    if (here.length > 0) room = here.reduce((sum, p) => plus(sum, max(ZERO, minus(p.earned, amount))), ZERO);
    else if (over) room = was;
    else continue;
    const r = min(min(was, room), n);
    if (sign(r) <= 0) continue;
    const period = here.at(-1)?.label ?? all.at(-1)?.label ?? d.starts_on.slice(0, 7);
    const earnedText =
      here.length > 0
        ? text(
            d,
            here.reduce((sum, p) => plus(sum, p.earned), ZERO),
          )
        : null;
    const lineId = newId("com", run.at.getTime());
    const after = minus(was, r);
    const negative = minus(ZERO, r);
    await draws.insertDrawLine(tx, {
      id: lineId,
      user_id: d.user_id,
      currency: d.currency,
      draw_id: d.id,
      period,
      amount: text(d, negative),
      payout_run_id: run.id,
      at: run.at,
      explanation: {
        summary: `Draw ${d.id} recovers ${text(d, r)} ${d.currency} of its ${text(d, was)} balance`,
        draw_id: d.id,
        period,
        amount: text(d, amount),
        earned: earnedText,
        recovery: text(d, r),
        balance_before: text(d, was),
        balance_after: text(d, after),
      },
    });
    await draws.insertEntry(tx, {
      id: newId("drwe", run.at.getTime()),
      draw_id: d.id,
      type: "recovery",
      amount: text(d, negative),
      line_id: lineId,
      payout_run_id: run.id,
      reason: null,
      created_at: run.at,
    });
    balance.set(d.id, after);
    net.set(key, minus(n, r));
  }
}
