import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { auditFailedSignIn } from "../audit/record.js";
import { makeCtx, OWNER, type UserActor } from "../context.js";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import { rateLimitRejections } from "../metrics.js";
import { verifyPassword } from "../passwords/index.js";
import {
  countFailedAuth,
  FAILED_AUTH_PER_IP,
  FAILED_LOGINS_PER_EMAIL,
  logSize,
  type RateLimitStore,
  tooManyRequests,
} from "../rate-limit/limiter.js";
import { endSessionByToken, type SessionSettings, sessionTokenOf } from "../sessions/index.js";
import { credentialsByEmail, getUser } from "../users/index.js";
import { beginPasswordAttempt } from "./password-attempts.js";
import { type SessionBody, signIn } from "./sign-in.js";

/** What the sign-in routes need beyond a request: the database, the clock, and where failures are counted. */
export interface SignInDeps {
  db: Db;
  env: string;
  sessions: SessionSettings;
  /** The pipeline's store: failed sign-ins per email (`login:<email>`) and per client IP (`ip:<ip>`). */
  rateLimits: RateLimitStore;
  clock: () => Date;
}

// The messages name fields, never values: a password never comes back in a 422.
export const LoginBody = z.strictObject({
  email: z.string().trim().min(1).max(320).describe("Compared case-insensitively."),
  password: z.string().min(1).max(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The one answer to every failed sign-in, whatever failed (API.md §11): nothing tells the cases apart. */
export function wrongCredentials(): AppError {
  return new AppError("unauthorized", "Email or password is wrong");
}

const TOO_MANY_SIGN_INS = `Too many failed sign-ins for this email (more than ${FAILED_LOGINS_PER_EMAIL.limit} in 15 minutes); retry later`;

type FailureReason = "unknown_email" | "wrong_password" | "inactive" | "no_password";

/**
 * `POST /auth/login`. Every attempt that gets past the per-email limit does exactly one password
 * verification (against a dummy hash when there is nothing to verify), so unknown emails, inactive
 * people, people without a password and wrong passwords cost the same and answer the same 401.
 * Each attempt first takes a slot of the email's 10 failures in 15 minutes (`beginPasswordAttempt`,
 * shared with password changes), so past 10 failures, and while 10 attempts are being verified, the
 * next is refused (429) before any verification, in every process; so is any attempt from an address
 * past its 30 failed authentications a minute. A right password gives its slot back: a success never counts.
 */
export async function logIn(
  deps: SignInDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  body: LoginBody,
): Promise<SessionBody> {
  const now = deps.clock();
  const email = body.email.toLowerCase();
  const attempt = await beginPasswordAttempt(deps.rateLimits, email, now, TOO_MANY_SIGN_INS);
  let account: { id: string };
  try {
    const fromIp = await logSize(deps.rateLimits, `ip:${req.ip}`, FAILED_AUTH_PER_IP.windowMs, now.getTime());
    refuseWhenIpLimited(req, fromIp);
    const found = await credentialsByEmail(deps.db, email);
    const usable = found?.active === true ? found.password_hash : null;
    const matches = await verifyPassword(usable, body.password);
    if (!found || !matches) {
      attempt.failed();
      const reason: FailureReason = !found
        ? "unknown_email"
        : !found.active
          ? "inactive"
          : found.password_hash === null
            ? "no_password"
            : "wrong_password";
      await recordFailure(deps, req, now, email, found?.id, reason);
      throw wrongCredentials();
    }
    account = found;
  } finally {
    await attempt.end();
  }
  const ctx = makeCtx(deps.db, deps.env, OWNER, req.id, now);
  const user = await getUser(ctx, account.id);
  // A session the browser still held is replaced, not kept beside the new one.
  const previous = sessionTokenOf(req.headers.cookie);
  if (previous) await endSessionByToken(deps.db, previous, now, "replaced");
  const actor: UserActor = { type: "user", userId: user.id, name: user.name, role: user.role, sessionId: "" };
  return signIn({ ...ctx, actor }, reply, user, {
    method: "password",
    settings: deps.sessions,
    secure: req.publicOrigin.startsWith("https:"),
  });
}

/** Past 30 failed authentications from the address in a minute: 429, before any verification. */
function refuseWhenIpLimited(req: FastifyRequest, fromIp: { size: number; resetSeconds: number }): void {
  if (fromIp.size < FAILED_AUTH_PER_IP.limit) return;
  req.ipLimited = true;
  rateLimitRejections.inc({ limiter: "ip" });
  throw tooManyRequests(fromIp.resetSeconds, "Too many failed authentication attempts from this address; retry later");
}

/**
 * A failed sign-in (its attempt's slot is the email's count): counted for the client IP (past 30 a
 * minute: 429), and audited as `session.login_failed` by an anonymous actor
 * (`{"type":"user","id":null,"name":"anonymous"}`: nobody was signed in). The resource is the user the
 * email belongs to (`user`, usr_…), or, for an email no user has, `login` with the lowercased email as
 * its id. `after` holds the email and the reason; never the password.
 */
async function recordFailure(
  deps: SignInDeps,
  req: FastifyRequest,
  now: Date,
  email: string,
  userId: string | undefined,
  reason: FailureReason,
): Promise<void> {
  const refused = await countFailedAuth(deps.rateLimits, req.ip, now.getTime());
  if (refused) {
    req.ipLimited = true;
    throw refused;
  }
  await auditFailedSignIn(
    deps.db,
    { now, requestId: req.id },
    {
      resource: userId ? "user" : "login",
      resourceId: userId ?? email,
      after: { email, reason },
    },
  );
}
