import type { Tx } from "../context.js";
import { isUniqueViolation } from "../db/errors.js";
import { conflict, validationError } from "../errors.js";
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

export async function checkManager(tx: Tx, userId: string | null, managerId: string | null | undefined): Promise<void> {
  if (!managerId) return;
  if (managerId === userId) throw validationError("manager_id", "cannot be the user itself");
  if (!(await repo.findUser(tx, managerId))) throw validationError("manager_id", `user ${managerId} does not exist`);
  if (userId && (await repo.managerChain(tx, managerId)).includes(userId)) {
    throw validationError("manager_id", `${managerId} reports to ${userId}; managers cannot form a cycle`);
  }
}
