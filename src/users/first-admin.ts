import type { Db } from "../db/schema.js";
import * as repo from "./repository.js";

/** Whether a person can administer the console yet: an active admin user exists (keys do not count). */
export function hasActiveAdmin(db: Db): Promise<boolean> {
  return repo.anyActiveAdmin(db);
}

/** The command that makes the first admin, as the start banner and `cts doctor` print it. */
export const FIRST_ADMIN_COMMAND = "cts users invite <email> --role admin";
