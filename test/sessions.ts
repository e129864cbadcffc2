/**
 * Signing a person in, for tests: `const s = await signedInAs(t, { role: "admin" })` creates a user
 * (or takes the one you pass) and starts a real session for it in the test's database — the same
 * `startSession` the sign-in routes use — at the test app's clock. Then send it with app.inject:
 *
 *   await t.app.inject({ method: "GET", url: "/api/v1/deals", headers: s.headers("GET") });
 *   await t.app.inject({ method: "POST", url: "/api/v1/deals", headers: s.headers("POST"), payload });
 *
 * `headers(method)` holds the `cookie` and, for POST/PUT/PATCH/DELETE, the `x-csrf-token` the CSRF
 * check needs (API.md §11); no Authorization header, so the session is what authenticates. `cookie` and
 * `csrfToken` are there to build requests that break those rules on purpose.
 */
import { DEFAULT_SESSION_SETTINGS, type SessionSettings, startSession } from "../src/sessions/index.js";
import type { CreateUserBody, User } from "../src/users/index.js";
import { createUser } from "./factories.js";
import type { TestApp } from "./harness.js";

export interface SignedInSession {
  user: User;
  sessionId: string;
  /** The raw session token (the cookie's value). */
  token: string;
  /** `cts_session=<token>`, a Cookie header's value. */
  cookie: string;
  csrfToken: string;
  /** Cookie, plus X-CSRF-Token for unsafe methods; merge more headers in with a spread. */
  headers(method?: string): Record<string, string>;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A user (created with `overrides`, or the one given) signed in with a fresh session. */
export async function signedInAs(
  t: TestApp,
  who: User | Partial<CreateUserBody> = {},
  settings: SessionSettings = DEFAULT_SESSION_SETTINGS,
): Promise<SignedInSession> {
  const user = "id" in who && typeof who.id === "string" ? (who as User) : await createUser(t, who);
  const now = t.clock?.now() ?? new Date();
  const started = await startSession(t.db.db, user.id, now, settings);
  const cookie = `cts_session=${started.token}`;
  return {
    user,
    sessionId: started.sessionId,
    token: started.token,
    cookie,
    csrfToken: started.csrfToken,
    headers: (method = "GET") => ({
      cookie,
      ...(UNSAFE.has(method.toUpperCase()) ? { "x-csrf-token": started.csrfToken } : {}),
    }),
  };
}
