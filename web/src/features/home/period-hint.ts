import type { PlanPeriod } from "../../lib/periods";

// The period kinds (quarter, month, year) a person's home showed last time in this browser, so the next
// visit asks for their earlier periods together with the current ones instead of after them. Only a
// hint: missing or wrong, the page asks for what it needs once the current statements answered.

const KINDS: readonly PlanPeriod[] = ["quarter", "month", "year"];
const key = (userId: string) => `cts:home-period-kinds:${userId}`;

export function rememberedPeriodKinds(userId: string): PlanPeriod[] {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(key(userId)) ?? "[]");
    return Array.isArray(stored) ? KINDS.filter((kind) => stored.includes(kind)) : [];
  } catch {
    return [];
  }
}

export function rememberPeriodKinds(userId: string, kinds: PlanPeriod[]): void {
  try {
    const value = JSON.stringify(KINDS.filter((kind) => kinds.includes(kind)));
    if (globalThis.localStorage?.getItem(key(userId)) !== value) globalThis.localStorage?.setItem(key(userId), value);
  } catch {
    // Storage full or refused (private mode): the next visit asks in two rounds, as the first did.
  }
}
