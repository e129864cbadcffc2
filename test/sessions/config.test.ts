import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe("CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS", () => {
  it("default to 480 minutes and 168 hours", () => {
    expect(loadConfig({}).sessions).toEqual({ idleMinutes: 480, maxHours: 168 });
  });

  it("take whole numbers", () => {
    const config = loadConfig({ CTS_SESSION_IDLE_MINUTES: "30", CTS_SESSION_MAX_HOURS: "12" });
    expect(config.sessions).toEqual({ idleMinutes: 30, maxHours: 12 });
  });

  it.each([
    ["CTS_SESSION_IDLE_MINUTES", "8h", "CTS_SESSION_IDLE_MINUTES must be a whole number of minutes (1-43200)"],
    ["CTS_SESSION_IDLE_MINUTES", "0", "CTS_SESSION_IDLE_MINUTES must be a whole number of minutes (1-43200)"],
    ["CTS_SESSION_IDLE_MINUTES", "43201", "CTS_SESSION_IDLE_MINUTES must be a whole number of minutes (1-43200)"],
    ["CTS_SESSION_MAX_HOURS", "-1", "CTS_SESSION_MAX_HOURS must be a whole number of hours (1-8760)"],
    ["CTS_SESSION_MAX_HOURS", "1.5", "CTS_SESSION_MAX_HOURS must be a whole number of hours (1-8760)"],
    ["CTS_SESSION_MAX_HOURS", "8761", "CTS_SESSION_MAX_HOURS must be a whole number of hours (1-8760)"],
  ])("%s=%s stops the start with one clear message", (name, value, message) => {
    expect(problemsOf({ [name]: value })).toEqual([message]);
  });
});
