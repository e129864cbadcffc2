import type { Tx } from "../context.js";
import { AppError, notFound } from "../errors.js";
import * as repo from "./repository.js";

// What finalize and cancel share: the run locked first (SELECT … FOR UPDATE), so of concurrent
// transitions one wins and the rest read its status (409 invalid_transition).

export async function lockedDraft(tx: Tx, id: string, action: "finalized" | "cancelled"): Promise<repo.RunRow> {
  const run = await repo.lockRun(tx, id);
  if (!run) throw notFound("Payout run", id);
  if (run.status !== "draft") {
    throw new AppError("invalid_transition", `Payout run ${id} is ${run.status}; only draft runs can be ${action}`);
  }
  return run;
}
