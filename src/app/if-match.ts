import type { Ctx, Tx } from "../context.js";
import { AppError } from "../errors.js";
import { etagOf, matchesIfMatch } from "../http/etag.js";
import { matchedRoute } from "../http/matched-route.js";
import type { App } from "../http/types.js";

/**
 * `If-Match` on PATCH and PUT (API.md §2): the route's config names how to read the record's GET
 * representation; the update service calls `ctx.precondition` inside its transaction with the record
 * locked, so two editors holding one ETag cannot both win. A stale tag → 412 and nothing changes.
 */
export function registerIfMatch(app: App): void {
  // Synchronous (a callback hook): it only wraps the ctx, and runs on every request.
  app.addHook("preHandler", (req, reply, done) => {
    const header = req.headers["if-match"];
    const current = matchedRoute(req).config?.ifMatch;
    if (header === undefined || current === undefined || !req.ctx) return done();
    // The GET route's own serializer (the same compiler and schema), so the bytes and the ETag agree.
    const serialize = reply.compileSerializationSchema(current.schema as never) as (data: unknown) => string;
    const ctx = req.ctx;
    const params = req.params as Record<string, string>;
    req.ctx = {
      ...ctx,
      precondition: async (tx: Tx) => {
        const readCtx: Ctx = { ...ctx, db: tx, precondition: undefined };
        const record = await current
          .read(readCtx, params, { query: req.query, body: req.body })
          .catch((err: unknown) => {
            if (err instanceof AppError && err.code === "not_found") return undefined;
            throw err;
          });
        if (!matchesIfMatch(header, record === undefined ? undefined : etagOf(serialize(record)))) {
          throw new AppError(
            "precondition_failed",
            `If-Match ${header} is not the current ETag of this record: someone changed it since. GET it again, then retry`,
          );
        }
      },
    };
    done();
  });
}
