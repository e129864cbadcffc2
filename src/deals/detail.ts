import { type Commission, linesOfDeal } from "../commissions/index.js";
import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import { lineSumsOf } from "./commission-totals.js";
import * as repo from "./repository.js";
import type { DealDetail } from "./schema.js";

/* A single-deal response (DealDetail), built the same way by every service that answers one. */

/** A single-deal response: the deal as stored now, its lines, and the background job if one started. */
export async function detailOf(db: Db | Tx, id: string, jobId: string | null): Promise<DealDetail> {
  const record = await repo.findDeal(db, id);
  if (!record) throw notFound("Deal", id);
  return detailOfRecord(db, record, jobId);
}

/** The same response for a record the caller already holds as stored (a transition's `setStatus` result). */
export async function detailOfRecord(db: Db | Tx, record: repo.DealRecord, jobId: string | null): Promise<DealDetail> {
  return detailWithLines(record, await linesOfDeal(db, record.id), jobId);
}

/** The same response when the deal's lines as stored now are read already. */
export function detailWithLines(record: repo.DealRecord, lines: Commission[], jobId: string | null): DealDetail {
  const deal = repo.toDeal({ ...record, line_sums: lineSumsOf(lines) });
  return { ...deal, people: peopleOf(record), commissions: lines, recalculation_job_id: jobId };
}

/** The owner, then each credited user not named yet, by the names read with the record's splits. */
function peopleOf(record: repo.DealRecord): DealDetail["people"] {
  const people = record.owner_name === undefined ? [] : [{ user_id: record.owner_id, name: record.owner_name }];
  for (const split of record.splits) {
    if (split.name !== undefined && !people.some((p) => p.user_id === split.user_id)) {
      people.push({ user_id: split.user_id, name: split.name });
    }
  }
  return people;
}
