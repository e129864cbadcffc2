import type { Spiff } from "../../data/spiffs/queries";
import { today } from "../../lib/periods";

export type SpiffState = "inactive" | "upcoming" | "running" | "ended";

/** Where a SPIFF stands today (the browser's date): switched off, not started, in its window, or past it. */
export function stateOf(spiff: Spiff, on = today()): SpiffState {
  if (!spiff.active) return "inactive";
  if (on < spiff.starts_on) return "upcoming";
  if (on > spiff.ends_on) return "ended";
  return "running";
}
