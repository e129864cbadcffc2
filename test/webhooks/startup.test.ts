import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { resolveWebhookSettings } from "../../src/webhooks/index.js";
import { ctsEnv, runCts } from "../cli/spawn.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function config(env: Record<string, string>): Config {
  const dataDir = mkdtempSync(join(tmpdir(), "cts-webhook-settings-"));
  dirs.push(dataDir);
  return loadConfig({ CTS_DATA_DIR: dataDir, ...env });
}

describe("webhook settings at start-up", () => {
  it("embedded mode generates the data dir's key once (mode 0600) and reuses it", async () => {
    const c = config({ CTS_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:4000,localhost", CTS_WEBHOOK_ALLOW_HTTP: "1" });
    const first = await resolveWebhookSettings(c);
    expect(first.secretKey).toHaveLength(32);
    expect(statSync(join(c.dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    expect((await resolveWebhookSettings(c)).secretKey).toEqual(first.secretKey);
    expect(first).toMatchObject({ allowHosts: ["127.0.0.1:4000", "localhost"], allowHttp: true });
  });

  it("CTS_SECRET_KEY wins over the data dir", async () => {
    const key = Buffer.alloc(32, 9);
    const c = config({ CTS_SECRET_KEY: key.toString("base64") });
    expect((await resolveWebhookSettings(c)).secretKey).toEqual(key);
  });

  it("an allow-list entry that is not loopback stops start-up with one line per entry", async () => {
    const c = config({ CTS_WEBHOOK_ALLOW_HOSTS: "10.0.0.7,hooks.example.com:8443" });
    const lookup = async () => [{ address: "93.184.215.14" }];
    const error = await resolveWebhookSettings(c, lookup).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "CTS_WEBHOOK_ALLOW_HOSTS: 10.0.0.7: 10.0.0.7 is not loopback (CTS_WEBHOOK_ALLOW_HOSTS exempts loopback only)",
      "CTS_WEBHOOK_ALLOW_HOSTS: hooks.example.com:8443: hooks.example.com resolves to 93.184.215.14: 93.184.215.14 is not loopback (CTS_WEBHOOK_ALLOW_HOSTS exempts loopback only)",
    ]);
  });

  it("`cts serve` refuses to start on such an entry (exit 2, the problem on stderr)", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cts-webhook-serve-"));
    dirs.push(dataDir);
    const r = runCts(
      ["serve"],
      ctsEnv({ CTS_DATA_DIR: dataDir, CTS_PORT: "0", CTS_WEBHOOK_ALLOW_HOSTS: "192.168.1.10" }),
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("CTS_WEBHOOK_ALLOW_HOSTS: 192.168.1.10: 192.168.1.10 is not loopback");
  });
});
