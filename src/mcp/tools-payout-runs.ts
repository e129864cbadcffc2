import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import {
  CreatePayoutRunBody,
  cancelPayoutRun,
  createPayoutRun,
  finalizePayoutRun,
  getPayoutRun,
  ListPayoutRunsQuery,
  listPayoutRuns,
  PayoutRunDetail,
  PayoutRunSummary,
  RunLinesQuery,
} from "../payout-runs/index.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, TRANSITIONS, withId } from "./tool.js";

/** Payout runs (API.md §13): reads for read keys; create, finalize and cancel for admin keys the owner granted admin. */
export const PAYOUT_RUN_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_payout_runs",
    title: "List payout runs",
    description: `Lists payout runs newest first, without payees (GET /api/v1/payout-runs): filters status, currency. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListPayoutRunsQuery,
    output: listOf(PayoutRunSummary),
    annotations: READS,
    run: (ctx, args) => listPayoutRuns(ctx, args),
  }),
  defineTool({
    name: "get_payout_run",
    title: "Get a payout run",
    description: `One payout run by id (prun_…): its payees (net_pay per person and currency) and a page of its lines. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(RunLinesQuery),
    output: PayoutRunDetail,
    annotations: READS,
    run: (ctx, { id, ...query }) => getPayoutRun(ctx, id, query),
  }),
  defineTool({
    name: "create_payout_run",
    title: "Create a draft payout run",
    description:
      "A draft run (POST /api/v1/payout-runs) of the approved lines no run holds, eligible through `through`, netted " +
      "per person. It pays nothing: finalize_payout_run does.",
    scope: "admin",
    access: "admin",
    input: CreatePayoutRunBody,
    output: PayoutRunDetail,
    annotations: CREATES,
    run: (ctx, args) => createPayoutRun(ctx, args),
  }),
  defineTool({
    name: "finalize_payout_run",
    title: "Finalize a payout run",
    description:
      "Finalizes a draft run (POST /api/v1/payout-runs/{id}/finalize): its lines and fully paid deals become paid. It " +
      "moves no money; a retry is refused (invalid_transition).",
    scope: "admin",
    access: "admin",
    input: IdParams,
    output: PayoutRunDetail,
    annotations: TRANSITIONS,
    run: (ctx, { id }) => finalizePayoutRun(ctx, id),
  }),
  defineTool({
    name: "cancel_payout_run",
    title: "Cancel a payout run",
    description:
      "Cancels a draft run (POST /api/v1/payout-runs/{id}/cancel), releasing its lines; never a finalized one.",
    scope: "admin",
    access: "admin",
    input: IdParams,
    output: PayoutRunDetail,
    annotations: { ...TRANSITIONS, destructiveHint: true },
    run: (ctx, { id }) => cancelPayoutRun(ctx, id),
  }),
];
