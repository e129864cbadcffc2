import type { App } from "../http/types.js";
import type { SignInDeps } from "./login.js";
import { sessionRoutes } from "./routes-session.js";

/** The database, clock, session settings and rate-limit store the /auth routes share. */
export type AuthSettings = SignInDeps;

/** The /auth routes: sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(app: App, settings: AuthSettings): void {
  sessionRoutes(app, settings);
}
