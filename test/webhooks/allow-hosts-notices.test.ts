import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Lookup, validateTargetUrl } from "../../src/webhooks/testing.js";
import { ctsEnv, fromTemplate, startServer } from "../cli/spawn.js";

const lookup: Lookup = async (hostname) => {
  const table: Record<string, string[]> = { localhost: ["127.0.0.1", "::1"], "api.localhost": ["127.0.0.1"] };
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address }));
};

const LISTED = "127.0.0.1:4000, [::1]:4001, localhost:4002";
const NOT_LISTED = (target: string) =>
  `${target} is a loopback target but is not listed in CTS_WEBHOOK_ALLOW_HOSTS (${LISTED}); ` +
  "entries match the host and port as written (localhost, 127.0.0.1 and [::1] are different entries)";

describe("#13.29 a loopback target refused only because it is spelled differently from the allow-list says so", () => {
  const policy = { allowHosts: LISTED.split(", "), allowHttp: true, lookup };
  it.each([
    ["http://localhost:4000/hook", "localhost:4000"],
    ["https://localhost:4000/hook", "localhost:4000"],
    ["http://127.0.0.1:4002/hook", "127.0.0.1:4002"],
    ["http://[::1]:4000/", "[::1]:4000"],
    ["http://127.0.0.1:4001/", "127.0.0.1:4001"],
    ["http://api.localhost:4002/", "api.localhost:4002"],
    ["http://127.0.0.1:4999/", "127.0.0.1:4999"],
  ])("%s", async (url, target) => {
    expect(await validateTargetUrl(url, policy)).toBe(NOT_LISTED(target));
  });

  it("keeps the scheme and port messages when listing the host would not be enough", async () => {
    expect(await validateTargetUrl("http://localhost:4000/", { ...policy, allowHttp: false })).toBe(
      "url must use https (http is accepted only for CTS_WEBHOOK_ALLOW_HOSTS targets with CTS_WEBHOOK_ALLOW_HTTP=1)",
    );
    expect(await validateTargetUrl("http://localhost:80/", policy)).toBe(
      "url port must be 443 or 1024 and above, not 80",
    );
    expect(await validateTargetUrl("http://127.0.0.1:4000/", policy)).toBeNull();
  });

  it("without an allow-list a loopback target gets the usual refusal", async () => {
    const result = await validateTargetUrl("https://127.0.0.1:4000/", { allowHosts: [], allowHttp: false, lookup });
    expect(result).not.toContain("CTS_WEBHOOK_ALLOW_HOSTS (");
  });
});

describe("#13.29 start-up names the exemptions in one warn line", () => {
  const dataDir = fromTemplate(mkdtempSync(join(tmpdir(), "cts-allow-warn-")));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("cts serve with CTS_WEBHOOK_ALLOW_HOSTS logs exactly one warn line listing them", {
    timeout: 120_000,
  }, async () => {
    const server = await startServer(
      ctsEnv({
        CTS_DATA_DIR: dataDir,
        CTS_WEBHOOK_ALLOW_HOSTS: "127.0.0.1:4000,localhost",
        CTS_WEBHOOK_ALLOW_HTTP: "1",
      }),
    );
    server.child.kill("SIGTERM");
    await server.exited.catch(() => {});
    const warns = server
      .stdout()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; allow_hosts?: string[]; allow_http?: boolean })
      .filter((line) => line.level === 40);
    expect(warns.map(({ msg, allow_hosts, allow_http }) => ({ msg, allow_hosts, allow_http }))).toEqual([
      {
        msg: "CTS_WEBHOOK_ALLOW_HOSTS exempts 127.0.0.1:4000, localhost from the webhook address rules (loopback only, http allowed); for development only",
        allow_hosts: ["127.0.0.1:4000", "localhost"],
        allow_http: true,
      },
    ]);
  });
});
