import type { PlanPeriod } from "./periods";

// What this browser remembers between visits so boot.ts can ask for a page's first data early: hints
// only. Missing or wrong, the page asks for what it needs once the session (or the current
// statements) answered; storage refused (private mode), nothing is remembered.

const VIEWER_KEY = "cts:last-viewer";
const KINDS: readonly PlanPeriod[] = ["quarter", "month", "year"];
const kindsKey = (userId: string) => `cts:home-period-kinds:${userId}`;

function read(key: string): string | undefined {
  try {
    return globalThis.localStorage?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: string | undefined): void {
  try {
    if (value === undefined) globalThis.localStorage?.removeItem(key);
    else if (globalThis.localStorage?.getItem(key) !== value) globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage full or refused: the next visit asks in two rounds, as the first did.
  }
}

/** A signed-in person as remembered: their id, and their role (which home they land on). */
export interface Viewer {
  id: string;
  role: string;
}

/**
 * Who was signed in when this browser last loaded the console: boot.ts asks for their home's data with
 * the session instead of after it. Wrong (someone else signed in since), those answers are not the ones
 * the page asks for and are dropped; it is forgotten on sign-out and on a 401.
 */
export function rememberedViewer(): Viewer | undefined {
  try {
    const stored = JSON.parse(read(VIEWER_KEY) ?? "null") as Partial<Viewer> | null;
    return typeof stored?.id === "string" && typeof stored.role === "string"
      ? { id: stored.id, role: stored.role }
      : undefined;
  } catch {
    return undefined;
  }
}

export const rememberViewer = (viewer: Viewer | undefined): void =>
  write(VIEWER_KEY, viewer && JSON.stringify({ id: viewer.id, role: viewer.role }));

/** The period kinds (quarter, month, year) a person's home showed last time: their earlier periods are asked for at once. */
export function rememberedPeriodKinds(userId: string): PlanPeriod[] {
  try {
    const stored: unknown = JSON.parse(read(kindsKey(userId)) ?? "[]");
    return Array.isArray(stored) ? KINDS.filter((kind) => stored.includes(kind)) : [];
  } catch {
    return [];
  }
}

export function rememberPeriodKinds(userId: string, kinds: PlanPeriod[]): void {
  write(kindsKey(userId), JSON.stringify(KINDS.filter((kind) => kinds.includes(kind))));
}
