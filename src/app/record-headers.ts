import { etagOf } from "../http/etag.js";
import { matchedRoute } from "../http/matched-route.js";
import type { App } from "../http/types.js";

/**
 * A write answering a record (API.md §20 (e)) carries the `ETag` a GET of that record then returns, so a
 * client's next If-Match needs no GET first, and a 201 names the record in `Location`. Taken from the body
 * sent (an idempotent replay carries the same headers): its own bytes when the write answers the GET's
 * representation, else the body as the GET writes it (without a plan's `recalculation_job_id`, a key's `key`).
 */
export function registerRecordHeaders(app: App): void {
  // Synchronous (a callback hook): it runs on every reply.
  app.addHook("onSend", (req, reply, payload, done) => {
    const route = matchedRoute(req);
    const represents = route.config?.represents;
    const status = reply.statusCode;
    if (!represents || (status !== 200 && status !== 201) || typeof payload !== "string") {
      return done(null, payload);
    }
    const answered = (route.schema?.response as Record<number, unknown> | undefined)?.[status];
    const sameShape = answered === represents.schema;
    const record = sameShape && status === 200 ? undefined : (JSON.parse(payload) as { id: string });
    if (sameShape) reply.header("ETag", etagOf(payload));
    else {
      const serialize = reply.compileSerializationSchema(represents.schema as never) as (data: unknown) => string;
      reply.header("ETag", etagOf(serialize(record)));
    }
    if (status === 201) {
      const path = represents.locate
        ? represents.locate(record as Record<string, unknown>)
        : represents.path.replace(":id", encodeURIComponent(record!.id));
      reply.header("Location", `${req.publicOrigin}${path}`);
    }
    done(null, payload);
  });
}
