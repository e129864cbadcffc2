import type { Tx } from "../context.js";
import { isUniqueViolation } from "../db/errors.js";
import { conflict, validationError } from "../errors.js";
import { cycleThrough } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";

// What the user writes share: a unique email, external id or payroll id already taken (409), a manager that must
// exist and must not form a cycle.

/** Unique emails and external ids surface as 409 `conflict` naming the value. */
export async function saving<T>(
  input: { email?: string; external_id?: string | null; payroll_id?: string | null },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, "users_email_key")) throw conflict(`A user with email ${input.email} already exists`);
    if (isUniqueViolation(err, "users_external_id_key")) {
      throw conflict(`A user with external_id ${input.external_id} already exists`);
    }
    if (isUniqueViolation(err, "users_payroll_id_key")) {
      throw conflict(`A user with payroll_id ${input.payroll_id} already exists`);
    }
    throw err;
  }
}

/**
 * A manager given for [from, to] (`to` null: open) must exist, must not be the user, and must not close
 * a loop on any of those days (API.md §16: walked through everyone's dated lines, not only today's tree).
 * `param` names the field in the caller's body (`manager_id`, `lines[2].manager_id`). A user being
 * created (`userId` null) has nobody below them yet.
 */
export async function checkManager(
  tx: Tx,
  userId: string | null,
  managerId: string | null | undefined,
  span: { from: string; to: string | null; today: string },
  param = "manager_id",
): Promise<void> {
  if (!managerId) return;
  if (managerId === userId) throw validationError(param, "cannot be the user itself");
  if (!(await repo.findUser(tx, managerId))) throw validationError(param, `user ${managerId} does not exist`);
  if (!userId) return;
  const cycle = await cycleThrough(tx, userId, managerId, span.from, span.to);
  if (!cycle) return;
  const chain = cycle.chain.join(" → ");
  const today = cycle.from <= span.today && span.today <= cycle.to;
  throw validationError(
    param,
    today
      ? `${managerId} reports to ${userId}; managers cannot form a cycle`
      : `${managerId} reports to ${userId} (${chain}) from ${cycle.from} to ${cycle.to}; managers cannot form a cycle on any date`,
  );
}
