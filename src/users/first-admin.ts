import type { Db } from "../db/schema.js";
import * as repo from "./repository.js";

/** Whether a person can administer the console yet: an active admin user exists (keys do not count). */
export function hasActiveAdmin(db: Db): Promise<boolean> {
  return repo.anyActiveAdmin(db);
}

const INVITE_ADMIN = "users invite <email> --role admin";

/** The command that makes the first admin, where `cts` is a command (installed, or linked by npm). */
export const FIRST_ADMIN_COMMAND = `cts ${INVITE_ADMIN}`;

/**
 * The same from the project's directory after `npm install && npm start`: there `cts` is on no PATH
 * (a package's own bin is never linked into its own node_modules/.bin), but the `cts` npm script is.
 */
export const FIRST_ADMIN_NPM_COMMAND = `npm run cts -- ${INVITE_ADMIN}`;
