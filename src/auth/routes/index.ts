import type { App } from "../../http/types.js";
import type { NotificationSettings } from "../../notifications/index.js";
import type { AnswerFloor } from "../answer-floor.js";
import type { SignInDeps } from "../login.js";
import type { OidcSettings } from "../oidc-settings.js";
import { invitationRoutes } from "./invitations.js";
import { methodsRoutes } from "./methods.js";
import { oidcRoutes } from "./oidc.js";
import { passwordResetRoutes } from "./password-reset.js";
import { sessionRoutes } from "./session.js";

/** The database, clock, session settings and rate-limit store the /auth routes share; OIDC when configured. */
export interface AuthSettings extends SignInDeps {
  /** OpenID Connect sign-in, when CTS_OIDC_* are set; its routes answer 404 otherwise. */
  oidc?: OidcSettings | undefined;
  /** Email notifications (CTS_SMTP_URL): invitations and password resets are emailed when set. */
  mail?: NotificationSettings | undefined;
  /** Tests only: the password-reset request's answer floor, on the test's clock and timer. */
  answerFloor?: AnswerFloor | undefined;
}

/** The /auth routes: the sign-in methods offered, sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(app: App, settings: AuthSettings): void {
  methodsRoutes(app, settings.oidc !== undefined, settings.db, settings.mail !== undefined);
  sessionRoutes(app, settings);
  invitationRoutes(app, settings);
  passwordResetRoutes(app, settings);
  const { oidc, db, env, clock, rateLimits } = settings;
  oidcRoutes(app, settings.sessions, oidc && { settings: oidc, db, env, clock, store: rateLimits });
}
