import { z } from "zod";
import type { App } from "../../http/types.js";

const SignInMethods = z
  .strictObject({
    password: z.literal(true).describe("Email and password (POST /auth/login): always offered."),
    oidc: z.boolean().describe("OpenID Connect (GET /auth/oidc/start): true when CTS_OIDC_* are set on this service."),
  })
  .meta({ id: "SignInMethods" });

/** `GET /auth/methods`: how a person may sign in here, so the sign-in page offers SSO only when it works. */
export function methodsRoutes(app: App, oidcConfigured: boolean): void {
  const methods = { password: true as const, oidc: oidcConfigured };
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
    async () => methods,
  );
}
