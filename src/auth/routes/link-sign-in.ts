import type { FastifyReply, FastifyRequest } from "fastify";
import { type Ctx, makeCtx, OWNER } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { countFailedAuth, type RateLimitStore } from "../../rate-limit/limiter.js";
import type { SessionSettings } from "../../sessions/index.js";
import type { LinkSignIn } from "../password-link.js";
import type { SessionBody } from "../sign-in.js";

/** What a link's public route needs without a request ctx (no key, no session yet). */
export interface LinkRouteDeps {
  db: Db;
  env: string;
  sessions: SessionSettings;
  /** Where a refused token counts as a failed authentication of the client IP (API.md §3). */
  rateLimits: RateLimitStore;
  clock: () => Date;
}

/**
 * Answers a link that sets a password (an invitation, a reset) with its new session (200, Set-Cookie).
 * Nobody is signed in yet: the work runs as the owner and audits as the person. A token that opens
 * nothing is a failed authentication of the client address, even when the password's 422 answers (its
 * strength estimate is not free): past 30 a minute from one IP, 429.
 */
export async function answerLink(
  deps: LinkRouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  redeem: (ctx: Ctx, how: LinkSignIn) => Promise<SessionBody>,
): Promise<SessionBody> {
  const now = deps.clock();
  const ctx = makeCtx(deps.db, deps.env, OWNER, req.id, now);
  let tokenRefused = false;
  const how: LinkSignIn = {
    settings: deps.sessions,
    secure: req.publicOrigin.startsWith("https:"),
    onRefusedToken: () => {
      tokenRefused = true;
    },
  };
  try {
    const session = await redeem(ctx, how);
    reply.code(200);
    return session;
  } catch (err) {
    if (tokenRefused) {
      const refused = await countFailedAuth(deps.rateLimits, req.ip, now.getTime());
      if (refused) throw refused;
    }
    throw err;
  }
}
