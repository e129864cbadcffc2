import type { FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { z } from "zod";
import { type Ctx, makeCtx, OWNER } from "../../context.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http/types.js";
import { countFailedAuth } from "../../rate-limit/limiter.js";
import type { SessionSettings } from "../../sessions/index.js";
import { sha256Hex } from "../../sessions/index.js";
import { listUsers, type User } from "../../users/index.js";
import { OidcClient, ProviderRefusal } from "../oidc-client.js";
import { auditRefusal, type RefusalReason, refusalPage } from "../oidc-refusal.js";
import type { OidcDeps } from "../oidc-settings.js";
import {
  CALLBACK_PATH,
  clearedStateCookie,
  isLocalPath,
  openState,
  type SignInState,
  STATE_TTL_MS,
  stateCookie,
} from "../oidc-state.js";
import { signIn } from "../sign-in.js";

const TAGS = ["Sign-in"];

const StartQuery = z.strictObject({
  return_to: z
    .string()
    .max(2048)
    .refine(isLocalPath, "must be a path on this service starting with / (never another origin)")
    .optional()
    .describe("A path on this service to land on once signed in (default `/`)."),
});

const param = (description: string) => z.string().max(4096).optional().describe(description);

/** What a provider sends back (RFC 6749 §4.1.2, RFC 9207 `iss`); others it may add are ignored. */
const CallbackQuery = z.looseObject({
  code: param("Authorization code."),
  state: param("Equals the state sealed in `cts_oidc`."),
  iss: param("Issuer (RFC 9207)."),
  error: param("The provider's refusal, e.g. `access_denied`."),
  error_description: param("Not shown."),
});

const NOT_CONFIGURED = () =>
  new AppError("not_found", "OpenID Connect sign-in is not configured on this service (CTS_OIDC_ISSUER)");

const START_DESCRIPTION =
  "A browser redirect, public: 302 to the provider (code flow, PKCE S256, state, nonce, scope `openid email`) " +
  "with the sign-in state sealed in the HttpOnly cookie `cts_oidc` (10 min). 404 without CTS_OIDC_ISSUER.";

const CALLBACK_DESCRIPTION =
  "The provider's redirect back, public. Signs in the active user whose email equals the provider's verified " +
  "email (no user is created): 302 to `return_to` or `/` with `cts_session`. Else an HTML page says why (401 " +
  "expired, reused or altered state, provider refused; 403 unverified email, no such user, deactivated) and a " +
  "`session.login_failed` audit row records it. Each state works once. 404 without CTS_OIDC_ISSUER.";

/** `GET /auth/oidc/start` and `GET /auth/oidc/callback` (API.md §11): browser redirects, public. */
export function oidcRoutes(app: App, sessions: SessionSettings, deps: OidcDeps | undefined): void {
  const configured = deps && { deps, oidc: new OidcClient(deps.settings) };
  const secureOf = (req: FastifyRequest) => req.publicOrigin.startsWith("https:");

  redirectRoute(
    app,
    configured,
    {
      path: "/auth/oidc/start",
      summary: "Start signing in with OpenID Connect",
      operationId: "startOidcSignIn",
      description: START_DESCRIPTION,
      query: StartQuery,
      to: "Redirect to the provider (Location).",
    },
    async (req, reply, { deps, oidc }) => {
      const state: SignInState = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        returnTo: req.query.return_to,
        expiresAt: deps.clock().getTime() + STATE_TTL_MS,
      };
      const target = await oidc.authorizationUrl(`${req.publicOrigin}${CALLBACK_PATH}`, state).catch(() => {
        throw new AppError(
          "unavailable",
          "The OpenID Connect provider cannot be reached; try again shortly",
          undefined,
          { "Retry-After": "5" },
        );
      });
      reply.header("Set-Cookie", stateCookie(deps.settings.secretKey, state, secureOf(req)));
      reply.header("Cache-Control", "no-store");
      return reply.redirect(target.href, 302);
    },
  );

  redirectRoute(
    app,
    configured,
    {
      path: "/auth/oidc/callback",
      summary: "Finish signing in with OpenID Connect",
      operationId: "finishOidcSignIn",
      description: CALLBACK_DESCRIPTION,
      query: CallbackQuery,
      to: "Signed in: redirect to `return_to` or `{origin}/`, with `cts_session`.",
    },
    async (req, reply, { deps, oidc }) => {
      const ctx = makeCtx(deps.db, deps.env, OWNER, req.id, deps.clock());
      const secure = secureOf(req);
      reply.header("Set-Cookie", clearedStateCookie(secure));
      reply.header("Cache-Control", "no-store");
      const refuse = async (reason: RefusalReason, detail: string, found: { user?: User; email?: string } = {}) => {
        await countFailure(deps, req, ctx.now);
        await auditRefusal(ctx, reason, found);
        const page = refusalPage(reason, detail);
        // An HTML page for the person in the browser, outside the JSON schema of this route.
        return reply.code(page.status).type("text/html; charset=utf-8").send(page.html);
      };

      const state = openState(deps.settings.secretKey, req.headers.cookie, req.query.state, ctx.now);
      if (!state) return refuse("bad_state", "");
      const once = await deps.store.hit(`oidc-state:${sha256Hex(state.state)}`, 1, STATE_TTL_MS, ctx.now.getTime());
      if (!once.allowed) return refuse("bad_state", "");

      let found: { email: string; verified: boolean } | null;
      try {
        found = await oidc.verifiedEmail(callbackUrl(req), state);
      } catch (err) {
        if (!(err instanceof ProviderRefusal)) throw err;
        req.log.warn({ reason: err.reason, detail: err.message }, "OpenID Connect sign-in refused");
        return refuse(err.reason, err.reason === "provider_refused" ? err.message : "");
      }
      if (!found) return refuse("provider_error", "");
      const { email } = found;
      const user = await userByEmail(ctx, email);
      if (!found.verified) return refuse("email_unverified", email, { user, email });
      if (!user) return refuse("unknown_user", email, { email });
      if (!user.active) return refuse("user_inactive", email, { user, email });
      await signIn(ctx, reply, user, { method: "oidc", settings: sessions, secure });
      return reply.redirect(`${req.publicOrigin}${state.returnTo ?? "/"}`, 302);
    },
  );
}

interface Configured {
  deps: OidcDeps;
  oidc: OidcClient;
}

/** What differs between the sign-in redirects: the path, its text, its query and where the 302 leads. */
interface Redirect<Q extends z.ZodType> {
  path: string;
  summary: string;
  operationId: string;
  description: string;
  query: Q;
  to: string;
}

type RedirectRequest<Q extends z.ZodType> = FastifyRequest<{ Querystring: z.output<Q> }>;

/** A browser redirect of the sign-in: public, a 302, and 404 while OpenID Connect is not configured. */
function redirectRoute<Q extends z.ZodType>(
  app: App,
  configured: Configured | undefined,
  route: Redirect<Q>,
  /** Sends the redirect, or the page of a refused sign-in, itself. */
  handle: (req: RedirectRequest<Q>, reply: FastifyReply, configured: Configured) => Promise<unknown>,
): void {
  const { path, summary, operationId, description, query, to } = route;
  app.get(
    path,
    {
      config: { public: true },
      schema: {
        // A browser redirect, not an API call: no generated client could follow it to the provider, so
        // the OpenAPI document names it in the Sign-in tag's text instead of listing it (like /mcp).
        hide: true,
        tags: TAGS,
        summary,
        operationId,
        description,
        querystring: query,
        response: { 302: z.null().describe(to) },
      },
    },
    async (req, reply) => {
      if (!configured) throw NOT_CONFIGURED();
      // Fastify validated the query against `route.query` before this handler: it has the parsed type.
      await handle(req as unknown as RedirectRequest<Q>, reply, configured);
      return reply;
    },
  );
}

/**
 * A refused sign-in is a failed authentication from the client's address, counted with bad keys and
 * failed logins (API.md §3, 30 a minute): past it, 429 and no audit row, so nobody floods the audit trail.
 */
async function countFailure(deps: OidcDeps, req: FastifyRequest, now: Date): Promise<void> {
  const refused = await countFailedAuth(deps.store, req.ip, now.getTime());
  if (!refused) return;
  req.ipLimited = true;
  throw refused;
}

/** The URL the provider redirected to, as openid-client checks it (its redirect_uri is this minus the query). */
function callbackUrl(req: FastifyRequest): URL {
  const query = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
  return new URL(`${req.publicOrigin}${CALLBACK_PATH}${query}`);
}

/** The user whose email equals this one, compared case-insensitively (emails are unique that way). */
async function userByEmail(ctx: Ctx, email: string): Promise<User | undefined> {
  const page = await listUsers(ctx, { page: 1, per_page: 1, email });
  return page.data[0];
}
