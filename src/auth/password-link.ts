import type { FastifyReply } from "fastify";
import { audit } from "../audit/record.js";
import { type Ctx, type Tx, type UserActor, withTransaction } from "../context.js";
import { type AppError, conflict } from "../errors.js";
import { checkPassword, hashPassword } from "../passwords/index.js";
import { endSessionsOf, type SessionSettings, sha256Hex } from "../sessions/index.js";
import { lockUserWithPassword, setPasswordHash } from "../users/index.js";
import { type SessionBody, type SignInMethod, signIn } from "./sign-in.js";

/*
 * A link that sets a password and signs in: an invitation (API.md §11) or a password reset. Both are a
 * one-use token whose SHA-256 alone is stored; what they differ in is their table, their words and their
 * audit row. The rest is one flow, here.
 */

/** What one kind of link brings to the flow. */
export interface PasswordLink<Row extends { id: string; user_id: string }> {
  /** The link's row by its token's SHA-256, locked (a concurrent second use waits, then finds it used). */
  lock: (tx: Tx, tokenHash: string) => Promise<Row | undefined>;
  /** Why the row no longer opens anything (404 `not_found`, saying which), or undefined. */
  refusal: (row: Row | undefined, now: Date) => AppError | undefined;
  /** The 409's message when the person is inactive. */
  inactive: (userId: string) => string;
  markUsed: (tx: Tx, id: string, now: Date) => Promise<void>;
  /** The audit row's action and `after`, given how many of the person's sessions ended. */
  audited: (row: Row, sessionsEnded: number) => { action: string; after: Record<string, unknown> };
  method: SignInMethod;
}

export interface PasswordLinkBody {
  token: string;
  password: string;
}

/** How the session starts, and whom a token that opens nothing is reported to. */
export interface LinkSignIn {
  settings: SessionSettings;
  secure: boolean;
  onRefusedToken?: () => void;
}

/**
 * In one transaction: checks the password (422, judged against the person's email and name when the
 * token names them), consumes the link (a refusal → its 404), refuses an inactive person (409), stores the
 * argon2id hash, ends every session of the person (whoever held the old password is locked out), audits
 * and signs in (a new session). A token that opens nothing is reported to `how.onRefusedToken`, whether
 * the answer is then the password's 422 or the token's 404 (the route counts it against the client
 * address, after the rollback).
 */
export async function setPasswordByLink<Row extends { id: string; user_id: string }>(
  ctx: Ctx,
  reply: FastifyReply,
  body: PasswordLinkBody,
  how: LinkSignIn,
  link: PasswordLink<Row>,
): Promise<SessionBody> {
  return withTransaction(ctx, async (tx: Tx) => {
    const row = await link.lock(tx, sha256Hex(body.token));
    const holder = row ? await lockUserWithPassword(tx, row.user_id) : undefined;
    const refused = link.refusal(row, ctx.now);
    if (refused) how.onRefusedToken?.();
    checkPassword(body.password, holder ? { email: holder.user.email, name: holder.user.name } : null);
    if (refused || !row || !holder) throw refused;
    const { user } = holder;
    if (!user.active) throw conflict(link.inactive(user.id));
    await link.markUsed(tx, row.id, ctx.now);
    await setPasswordHash(tx, user.id, await hashPassword(body.password), ctx.now);
    const ended = await endSessionsOf(tx, user.id, ctx.now, "password_change");
    // The person acts for themselves; their session starts just below (signIn), so it has no id yet.
    const actor: UserActor = { type: "user", userId: user.id, name: user.name, role: user.role, sessionId: "" };
    await audit(tx, { ...ctx, actor }, { ...link.audited(row, ended), resource: "user", resourceId: user.id });
    return signIn({ ...ctx, db: tx }, reply, user, { method: link.method, settings: how.settings, secure: how.secure });
  });
}
