import type { App } from "../http/types.js";
import type { SessionSettings } from "../sessions/index.js";

export interface AuthSettings {
  sessions: SessionSettings;
}

/** The /auth routes: sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(_app: App, _settings: AuthSettings): void {}
