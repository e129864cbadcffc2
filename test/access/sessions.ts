import { DEFAULT_SESSION_SETTINGS, SESSION_COOKIE, startSession } from "../../src/sessions/index.js";
import type { User } from "../../src/users/schema.js";
import type { TestApp } from "../harness.js";

/** Headers of a request sent by `user` signed in: a new session's cookie and its CSRF token. */
export async function sessionOf(t: TestApp, user: Pick<User, "id">): Promise<Record<string, string>> {
  const now = t.clock?.now() ?? new Date();
  const session = await startSession(t.db.db, user.id, now, DEFAULT_SESSION_SETTINGS);
  return { cookie: `${SESSION_COOKIE}=${session.token}`, "x-csrf-token": session.csrfToken };
}
