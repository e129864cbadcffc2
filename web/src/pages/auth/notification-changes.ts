import type { NotificationSettings } from "../../data/auth/queries";

export type Switches = Partial<Record<string, boolean>>;

/** The switchable kinds whose switch differs from what the server holds: the body of POST /me/notifications. */
export function changedKinds(saved: NotificationSettings, draft: Switches): Record<string, boolean> {
  const changed: Record<string, boolean> = {};
  for (const { kind, enabled, switchable } of saved.kinds) {
    const wanted = draft[kind];
    if (switchable && wanted !== undefined && wanted !== enabled) changed[kind] = wanted;
  }
  return changed;
}
