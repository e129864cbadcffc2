import type { Db } from "../db/schema.js";
import { namesOfUsers } from "./repository.js";

/** The names of these users, by id (ids not found are left out): for answers that name the people they list. */
export function userNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  return namesOfUsers(db, ids);
}
