import {
  CreateDrawBody,
  createDraw,
  Draw,
  EndDrawBody,
  endDraw,
  ForgiveDrawBody,
  forgiveDraw,
  getDraw,
  ListDrawsQuery,
  listDraws,
} from "../draws/index.js";
import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, TRANSITIONS, withId } from "./tool.js";

/** Draws (API.md §18): reads for read keys (a person sees their own, a manager their team's); writes for admin keys. */
export const DRAW_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_draws",
    title: "List draws",
    description: `Lists draws newest first with balance, periods and entries (GET /api/v1/draws): filters user_id, currency, status. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListDrawsQuery,
    output: listOf(Draw),
    annotations: READS,
    run: (ctx, args) => listDraws(ctx, args),
  }),
  defineTool({
    name: "get_draw",
    title: "Get a draw",
    description: `One draw by id (draw_…): its balance, each period's earnings and advance, and its entries. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: Draw,
    annotations: READS,
    run: (ctx, { id }) => getDraw(ctx, id),
  }),
  defineTool({
    name: "create_draw",
    title: "Create a draw",
    description:
      "A guaranteed minimum per month or quarter for one person (POST /api/v1/draws), recoverable or not; payout runs " +
      "settle each period. Overlapping another draw of the person and currency is refused (conflict).",
    scope: "admin",
    access: "admin",
    input: CreateDrawBody,
    output: Draw,
    annotations: CREATES,
    run: (ctx, args) => createDraw(ctx, args),
  }),
  defineTool({
    name: "end_draw",
    title: "End a draw",
    description:
      "Moves a draw's ends_on to effective_date (POST /api/v1/draws/{id}/end): later periods never advance; the " +
      "balance keeps being recovered.",
    scope: "admin",
    access: "admin",
    input: withId(EndDrawBody),
    output: Draw,
    annotations: TRANSITIONS,
    run: (ctx, { id, ...body }) => endDraw(ctx, id, body),
  }),
  defineTool({
    name: "forgive_draw",
    title: "Forgive a draw's balance",
    description:
      "Writes off part or all (default) of a recoverable draw's balance (POST /api/v1/draws/{id}/forgive) with a " +
      "reason; nothing is paid. Each call forgives again: do not retry blindly.",
    scope: "admin",
    access: "admin",
    input: withId(ForgiveDrawBody),
    output: Draw,
    annotations: { ...CREATES, destructiveHint: true },
    run: (ctx, { id, ...body }) => forgiveDraw(ctx, id, body),
  }),
];
