import type { Db } from "../db/schema.js";
import { newId } from "../ids.js";
import { moneyText, parse } from "../money/index.js";
import * as digestRepo from "./digest-repository.js";
import type { DigestWeek } from "./digest-schedule.js";
import { insertDeliveries } from "./repository.js";

export type DigestBucket = { deals: number; amounts: { currency: string; amount: string }[] };

/** What a digest delivery holds: the figures as they were when it was queued, amounts per currency. */
export interface DigestData {
  name: string;
  week: string;
  from: string;
  to: string;
  reports: number;
  approved: DigestBucket;
  rejected: DigestBucket;
  pending: DigestBucket;
  open_disputes: number;
}

function bucket(rows: digestRepo.DigestRow[], name: digestRepo.DigestRow["bucket"]): DigestBucket {
  const mine = rows.filter((r) => r.bucket === name).sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    deals: mine.reduce((n, r) => n + r.deals, 0),
    // Never summed across currencies: one amount each, at the currency's decimals.
    amounts: mine.map((r) => ({ currency: r.currency, amount: moneyText(parse(r.amount), r.currency) })),
  };
}

/**
 * Queues one digest per opted-in manager for `due`'s week, in one transaction with the week's row, so a
 * week is composed once (whoever turns the digest on later gets the next week's). The dedupe key
 * `digest:<ISO week>:<user>:weekly_digest` makes it once per manager and week besides. Returns how
 * many it queued.
 */
export async function queueWeeklyDigests(db: Db, due: DigestWeek, now: Date): Promise<number> {
  return db.transaction().execute(async (tx) => {
    if (!(await digestRepo.claimDigestWeek(tx, due.week, now))) return 0;
    let queued = 0;
    for (const manager of await digestRepo.digestManagers(tx)) {
      const team = await digestRepo.teamWeek(tx, manager.user_id, due.from, due.at);
      const data: DigestData = {
        name: manager.name,
        week: due.week,
        from: due.from.toISOString(),
        to: due.at.toISOString(),
        reports: team.reports,
        approved: bucket(team.rows, "approved"),
        rejected: bucket(team.rows, "rejected"),
        pending: bucket(team.rows, "pending"),
        open_disputes: team.open_disputes,
      };
      queued += await insertDeliveries(tx, [
        {
          id: newId("ntf", now.getTime()),
          dedupe_key: `digest:${due.week}:${manager.user_id}:weekly_digest`,
          kind: "weekly_digest",
          user_id: manager.user_id,
          event_id: null,
          to_address: manager.email,
          data: { ...data },
          secret_encrypted: null,
          created_at: now,
        },
      ]);
    }
    await digestRepo.recordDigestWeek(tx, due.week, queued);
    return queued;
  });
}
