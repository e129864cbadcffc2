import type { Ctx, Tx } from "../context.js";
import * as repo from "./repository.js";
import type { User } from "./schema.js";

/**
 * The users a file names by id, email (any case), external id or payroll id, as stored (the CSV imports,
 * API.md §19): read once for the whole file, whatever its size.
 */
export function usersNamed(
  db: Ctx["db"] | Tx,
  named: { ids?: string[]; emails?: string[]; externalIds?: string[]; payrollIds?: string[] },
): Promise<User[]> {
  return repo.findUsersNamed(db, {
    ids: named.ids ?? [],
    emails: named.emails ?? [],
    externalIds: named.externalIds ?? [],
    payrollIds: named.payrollIds ?? [],
  });
}

/** Every user's manager, to check a file's reporting lines for cycles as they will be once it is imported. */
export function managerLinks(db: Ctx["db"] | Tx): Promise<Map<string, string | null>> {
  return repo.managerLinks(db);
}
