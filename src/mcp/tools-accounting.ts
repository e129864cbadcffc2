import { getRollForward, RollForward, RollForwardQuery } from "../accounting/index.js";
import { defineTool, type McpTool, READ_ONLY, READS } from "./tool.js";

/** Commission-cost accounting (API.md §17): the roll-forward, for read keys. */
export const ACCOUNTING_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "get_accounting_roll_forward",
    title: "Roll the deferred commissions forward",
    description:
      "Per currency from `from` to `to` (YYYY-MM, at most 120 months; GET /api/v1/accounting/roll-forward): opening, " +
      `additions, adjustments, amortization, clawbacks, impairment, closing, current and noncurrent. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: RollForwardQuery,
    output: RollForward,
    annotations: READS,
    run: (ctx, args) => getRollForward(ctx, args),
  }),
];
