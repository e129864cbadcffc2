import type { Ctx, Tx } from "../../context.js";
import type { RatesChange } from "../../exchange-rates/index.js";
import { lockForRecalc, recalculate } from "./recalculate.js";

/**
 * A rate set written or deleted (API.md §15) recalculates the pending deals closing within its reach that
 * are in another currency than some plan or SPIFF (a `rates` target); locked lines never move. The
 * exclusive lock waits for recalculations that read the old rates, and holds off those that would.
 */
export async function recalculateRatesChange(tx: Tx, ctx: Ctx, change: RatesChange) {
  await lockForRecalc(tx, { spiffs: "exclusive" });
  return recalculate(tx, ctx, [{ type: "rates", ranges: [change.close_dates] }]);
}
