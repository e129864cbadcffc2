import type { App } from "../../http/types.js";
import { clawbackRoutes } from "./clawbacks.js";
import { dealRecordRoutes } from "./deals.js";

/** The /deals routes: the records and their workflow, then cancellations, refunds and clawback previews. */
export function dealRoutes(app: App): void {
  dealRecordRoutes(app);
  clawbackRoutes(app);
}
