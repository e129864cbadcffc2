// A session's timeouts (API.md §11): the settings, and the expiry they give a session last seen at a time.

/** CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS (API.md §11). */
export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = { idleMinutes: 480, maxHours: 168 };

export function expiryOf(lastSeen: Date, endsAt: Date, settings: SessionSettings): Date {
  const idle = new Date(lastSeen.getTime() + settings.idleMinutes * 60_000);
  return idle < endsAt ? idle : endsAt;
}
