import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { endSessionsOf } from "../sessions/index.js";
import * as repo from "./repository.js";

/**
 * `POST /users/{id}/sessions/revoke` (admin): ends every open session of the user, effective on their
 * next request in every process; `revoked` counts them (0 when none was open). Audited as session.revoke.
 */
export async function revokeSessions(ctx: Ctx, id: string): Promise<{ revoked: number }> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    if (!(await repo.lockUser(tx, id))) throw notFound("User", id);
    const revoked = await endSessionsOf(tx, id, ctx.now, "revoked");
    await audit(tx, ctx, { action: "session.revoke", resource: "user", resourceId: id, after: { revoked } });
    return { revoked };
  });
}
