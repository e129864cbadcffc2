import { z } from "zod";
import type { Db } from "../../db/schema.js";
import type { App } from "../../http/types.js";
import { hasActiveAdmin } from "../../users/index.js";

const SignInMethods = z
  .strictObject({
    password: z.literal(true).describe("Email and password (POST /auth/login): always offered."),
    oidc: z.boolean().describe("OpenID Connect (GET /auth/oidc/start): true when CTS_OIDC_* are set on this service."),
    password_reset: z
      .boolean()
      .describe("True when email is configured (CTS_SMTP_URL): the sign-in page offers “Forgot password?”."),
    needs_first_admin: z
      .boolean()
      .describe(
        "True while no active admin user exists: the owner invites the first with `cts users invite <email> --role admin`.",
      ),
  })
  .meta({ id: "SignInMethods" });

/**
 * `GET /auth/methods`: how a person may sign in here, so the sign-in page offers SSO only when it works,
 * and says what to do on a first run, when nobody can sign in to set it up yet.
 */
export function methodsRoutes(app: App, oidcConfigured: boolean, db: Db, emailConfigured = false): void {
  app.get(
    "/auth/methods",
    {
      config: { public: true },
      schema: {
        tags: ["Sign-in"],
        summary: "List the ways to sign in",
        operationId: "getSignInMethods",
        description:
          "Public. How a person may sign in here: password always, OpenID Connect when CTS_OIDC_* are set. The console's sign-in page offers SSO by it.",
        response: { 200: SignInMethods },
      },
    },
    async () => ({
      password: true as const,
      oidc: oidcConfigured,
      password_reset: emailConfigured,
      needs_first_admin: !(await hasActiveAdmin(db)),
    }),
  );
}
