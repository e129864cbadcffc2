import type { ImportResource } from "./fields";
import { type Choice, guessMapping } from "./mapping";

// The choices a person made by hand for each header, per resource, in this browser: the next file
// with the same headers (next month's CRM export) opens mapped the same way. Only what differs from
// the page's own guess is kept, so a stale choice never outranks an exact name. Storage refused
// (private mode), nothing is remembered and the page guesses again.

const keyOf = (resource: ImportResource) => `cts:import-mapping:${resource}`;
/** Headers kept per resource: the newest choices, enough for several exports' worth of columns. */
const KEPT = 200;

export function rememberedMapping(resource: ImportResource): Record<string, unknown> {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(keyOf(resource)) ?? "{}");
    return stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Keeps these headers' hand-made choices, newest last, over what was remembered for other headers. */
export function rememberMapping(
  resource: ImportResource,
  headers: readonly string[],
  choices: readonly Choice[],
): void {
  const guessed = guessMapping(resource, headers);
  const kept = Object.entries(rememberedMapping(resource)).filter(([header]) => !headers.includes(header));
  const now = headers.flatMap((header, i) =>
    header === "" || choices[i] === guessed[i] ? [] : [[header, choices[i]] as const],
  );
  try {
    globalThis.localStorage?.setItem(
      keyOf(resource),
      JSON.stringify(Object.fromEntries([...kept, ...now].slice(-KEPT))),
    );
  } catch {
    // Storage full or refused: the next file is guessed afresh.
  }
}
