import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { adpCsv } from "./export-adp.js";
import { onlyFinalized } from "./export-csv.js";
import { genericCsv } from "./export-generic.js";
import { gustoCsv } from "./export-gusto.js";
import { getPayoutRun } from "./read.js";
import type { ExportPayoutRunQuery } from "./schema.js";

/** A finalized run as a file (API.md §13): its name and its CSV text. */
export async function exportPayoutRun(
  ctx: Ctx,
  id: string,
  query: ExportPayoutRunQuery,
): Promise<{ filename: string; text: string }> {
  requireScope(ctx, "read", MAY.payoutRuns);
  const run = await getPayoutRun(ctx, id, { page: 1, per_page: 1 });
  onlyFinalized(run);
  switch (query.format) {
    case "adp":
      return { filename: `PR${query.co_code}EPI`, text: adpCsv(run, query) };
    case "gusto":
      return { filename: `payout-run-${id}-gusto`, text: gustoCsv(run, query) };
    default:
      return { filename: `payout-run-${id}`, text: genericCsv(run) };
  }
}
