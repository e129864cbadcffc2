import { MAY } from "../access/index.js";
import { declareRoutes } from "../declare-routes.js";
import { IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { createDraw } from "./create.js";
import { endDraw } from "./end.js";
import { forgiveDraw } from "./forgive.js";
import { listDraws } from "./list.js";
import { getDraw } from "./read.js";
import { CreateDrawBody, Draw, EndDrawBody, ForgiveDrawBody, ListDrawsQuery } from "./schema.js";

const WHO =
  "Writes: people finance and admin, keys admin. Reads: every reader; a rep sees their own draws, a manager " +
  "their subtree's (anyone else's is 404).";

export function drawRoutes(app: App): void {
  const route = declareRoutes(app, ["Draws"]);
  const draws = route.records({ path: "/draws", scope: { read: "read", write: "admin" }, record: Draw, read: getDraw });

  draws.list(
    {
      summary: "List draws",
      operationId: "listDraws",
      description: `Newest first (created_at desc, id desc). Filters: user_id, currency, status (active, ended; one or comma-separated). ${WHO}`,
      query: ListDrawsQuery,
    },
    ({ ctx, query }) => listDraws(ctx, query),
  );
  draws.get({ summary: "Get a draw", operationId: "getDraw", description: WHO });

  draws.create(
    {
      summary: "Create a draw",
      operationId: "createDraw",
      roles: MAY.draws,
      description:
        "A guaranteed minimum of `amount` per month or calendar quarter from starts_on (a period's first day) to " +
        "ends_on (a period's last day). Each period settles in the first non-cancelled payout run through its last " +
        "day or later that includes the person and currency: a `draw` line of max(0, amount − earned) (earned: " +
        "their plan, SPIFF and override lines in the currency with a period inside it). A recoverable draw's " +
        "advances make its balance, recovered from later runs after the run's deficit recovery (oldest draw " +
        "first), while the draw runs only from earnings above the amount. An unknown user_id → 422; overlapping " +
        `another draw of the person in the currency → 409 conflict. Event draw.created. ${WHO}`,
      body: CreateDrawBody,
    },
    ({ ctx, body }) => createDraw(ctx, body),
  );

  route.post(
    {
      path: "/draws/:id/end",
      scope: "admin",
      roles: MAY.draws,
      summary: "End a draw",
      operationId: "endDraw",
      description:
        "ends_on becomes effective_date: periods ending after it never advance (no proration); the balance keeps " +
        "being recovered from later runs. After the current ends_on or before the day before starts_on → 422; " +
        `before the last day of a period a payout run settled → 409 conflict. Event draw.ended. ${WHO}`,
      params: IdParams,
      body: EndDrawBody,
      response: Draw,
      represents: draws.ref,
    },
    ({ ctx, params, body }) => endDraw(ctx, params.id, body),
  );

  route.post(
    {
      path: "/draws/:id/forgive",
      scope: "admin",
      roles: MAY.draws,
      summary: "Forgive a draw's balance",
      operationId: "forgiveDraw",
      description:
        "A forgiveness entry of `amount` (default: the whole balance) with its reason; no line is written and " +
        "nothing is paid. A non-recoverable draw, a zero balance or an amount above the balance → 422. Event " +
        `draw.forgiven (the draw, amount, reason). ${WHO}`,
      params: IdParams,
      body: ForgiveDrawBody,
      response: Draw,
      represents: draws.ref,
    },
    ({ ctx, params, body }) => forgiveDraw(ctx, params.id, body),
  );
}
