import type { Insertable } from "kysely";
import type { Actor, Tx } from "../context.js";
import type { PayoutRunPayeesTable } from "../db/schema.js";
import { mapTurning } from "../event-loop.js";
import { netSums } from "./netting.js";
import * as payees from "./payees-repository.js";
import * as repo from "./repository.js";

// What creating and finalizing a run share: the payees netted from the run's lines (per person and
// currency), who acted, and the period an export shows.

/**
 * Writes the run's payees from its lines (summed per person and currency in SQL): each person's deficit
 * brought forward from the runs finalized (and, for a draft being created, every other draft: runs
 * finalized in creation order keep their draft figures), their name and ids as they are now.
 */
export async function writePayees(
  tx: Tx,
  runId: string,
  percent: string,
  counting: "finalized" | "finalized and drafts",
): Promise<void> {
  const groups = await payees.sumsOfRun(tx, runId);
  const userIds = [...new Set(groups.map((g) => g.user_id))];
  const [owed, people] = await Promise.all([
    payees.deficits(tx, userIds, counting === "finalized" ? null : { except: runId }),
    repo.people(tx, userIds),
  ]);
  const rows = await mapTurning(groups, ({ user_id, currency, sums }): Insertable<PayoutRunPayeesTable> => {
    const person = people.get(user_id)!;
    const n = netSums(sums, owed.get(`${user_id} ${currency}`) ?? "0", percent, currency);
    return {
      run_id: runId,
      user_id,
      currency,
      name: person.name,
      email: person.email,
      external_id: person.external_id,
      payroll_id: person.payroll_id,
      gross_plan: n.gross.plan,
      gross_spiff: n.gross.spiff,
      gross_override: n.gross.override,
      gross_adjustment: n.gross.adjustment,
      gross_clawback: n.gross.clawback,
      gross_draw_advance: n.gross.draw_advance,
      gross_draw_recovery: n.gross.draw_recovery,
      line_count: n.line_count,
      lines_total: n.lines_total,
      positive_total: n.positive_total,
      deficit_brought_forward: n.deficit_brought_forward,
      recovery_cap: n.recovery_cap,
      recovered: n.recovered,
      net_pay: n.net_pay,
      deficit_carried_forward: n.deficit_carried_forward,
    };
  });
  await payees.replacePayees(tx, runId, rows);
}

/** created_by, finalized_by: a person's id, a key's id, or `owner`. */
export function actorId(actor: Actor): string {
  if (actor.type === "user") return actor.userId;
  if (actor.type === "api_key") return actor.keyId;
  return "owner";
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * period_start: the day after the latest `through` of the finalized runs when that day is ≤ through, else
 * through itself (two runs through one day); the first day of through's month when there is none.
 */
export function periodStart(through: string, latest: string | null): string {
  if (latest === null) return `${through.slice(0, 8)}01`;
  const next = nextDay(latest);
  return next <= through ? next : through;
}
