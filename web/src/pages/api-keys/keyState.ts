import type { ApiKey, Scope } from "../../data/api-keys/queries";

const LEVELS: readonly Scope[] = ["read", "write", "admin"];

export type KeyState =
  | { kind: "revoked"; at: string }
  | { kind: "expired"; at: string }
  /** Rotated: the old key works until the grace period ends. */
  | { kind: "grace"; until: string; replacedBy: string }
  | { kind: "expires"; at: string }
  | { kind: "active" };

/** Where a key stands now, from the API's timestamps; `replacedBy` is the key that rotated it, when listed. */
export function keyState(key: ApiKey, replacedBy: string | undefined, now = Date.now()): KeyState {
  if (key.revoked_at) return { kind: "revoked", at: key.revoked_at };
  if (key.expires_at && Date.parse(key.expires_at) <= now) return { kind: "expired", at: key.expires_at };
  if (key.expires_at && replacedBy) return { kind: "grace", until: key.expires_at, replacedBy };
  if (key.expires_at) return { kind: "expires", at: key.expires_at };
  return { kind: "active" };
}

export const isUsable = (state: KeyState) => state.kind !== "revoked" && state.kind !== "expired";

/**
 * The MCP tools a key reaches (API.md §9): its scope AND the owner's grant, so the lower of the two.
 * Every usable key reaches /mcp with at least the read tools.
 */
export function mcpLevel(key: ApiKey): Scope {
  return LEVELS[Math.min(LEVELS.indexOf(key.scope), LEVELS.indexOf(key.mcp_access))]!;
}

/** The levels the owner could still grant this key: above its grant, up to its scope (a grant above scope does nothing). */
export function grantableLevels(key: ApiKey): Scope[] {
  return LEVELS.filter((level) => LEVELS.indexOf(level) > LEVELS.indexOf(key.mcp_access)).filter(
    (level) => LEVELS.indexOf(level) <= LEVELS.indexOf(key.scope),
  );
}

/** The owner CLI command that grants `level` (README "The owner CLI"); from a checkout: `npm run cts -- …`. */
export const grantCommand = (id: string, level: Scope) => `cts keys mcp-access ${id} ${level}`;
