import type { App } from "../http/types.js";
import type { SessionSettings } from "../sessions/index.js";
import type { OidcDeps } from "./oidc-settings.js";
import { oidcRoutes } from "./routes-oidc.js";

export interface AuthSettings {
  sessions: SessionSettings;
  /** OpenID Connect sign-in, when CTS_OIDC_* are set; its routes answer 404 otherwise. */
  oidc?: OidcDeps | undefined;
}

/** The /auth routes: sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(app: App, settings: AuthSettings): void {
  oidcRoutes(app, settings.sessions, settings.oidc);
}
