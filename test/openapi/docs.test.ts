import { execFile } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const page = (headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url: "/docs/", headers });
const bundleSrc = (html: string) => /<script\b[^>]*\bsrc="([^"]+)"/.exec(html)![1]!;

describe("#13.34 the docs page", () => {
  it("names the service and turns off Scalar's SaaS features", async () => {
    const html = (await page()).body;
    expect(html).toContain("<title>Commission Tracking Service API reference</title>");
    expect(html).toContain('"agent": {\n          "disabled": true\n        }');
    expect(html).toContain('"mcp": {\n          "disabled": true\n        }');
    expect(html).toContain('"showDeveloperTools": "never"');
    expect(html).toContain('"hideClientButton": true');
  });

  it("serves the page and the bundle compressed (br, gzip) with ETags and 304s", async () => {
    const plain = await page();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const bundleUrl = new URL(bundleSrc(plain.body), "http://x/docs/").pathname;
    const identity = await t.app.inject({ method: "GET", url: bundleUrl });
    expect(identity.rawPayload.length).toBeGreaterThan(1_000_000);
    for (const [encoding, decode] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync],
    ] as const) {
      for (const [url, original] of [
        ["/docs/", plain.rawPayload],
        [bundleUrl, identity.rawPayload],
      ] as const) {
        const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": `${encoding}, identity` } });
        expect(res.headers["content-encoding"], `${url} ${encoding}`).toBe(encoding);
        expect(res.headers.vary).toBe("Accept-Encoding");
        expect(decode(res.rawPayload).equals(original)).toBe(true);
        if (url !== "/docs/") expect(res.rawPayload.length).toBeLessThan(original.length / 3);
        const etag = String(res.headers.etag);
        expect(etag).toMatch(new RegExp(`^"[A-Za-z0-9_-]+-${encoding}"$`));
        const again = await t.app.inject({
          method: "GET",
          url,
          headers: { "accept-encoding": encoding, "if-none-match": etag },
        });
        expect(again.statusCode).toBe(304);
        expect(again.rawPayload.length).toBe(0);
      }
    }
    expect((await page({ "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"]).toBe("gzip");
  });

  it("caches the content-hashed bundle for a year; the page and the unhashed name revalidate", async () => {
    const html = (await page()).body;
    const src = bundleSrc(html);
    expect(src).toMatch(/^js\/scalar\.[A-Za-z0-9_-]{16}\.js$/);
    const hashed = await t.app.inject({ method: "GET", url: `/docs/${src}` });
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await page()).headers["cache-control"]).toBe("no-cache");
    const legacy = await t.app.inject({ method: "GET", url: "/docs/js/scalar.js" });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers["cache-control"]).toBe("no-cache");
    const stale = await t.app.inject({ method: "GET", url: "/docs/js/scalar.AAAAAAAAAAAAAAAA.js" });
    expect(stale.statusCode).toBe(404);
    expect(stale.json().error.code).toBe("not_found");
  });

  it("has a CSP naming its inline script's hash", async () => {
    const res = await page();
    const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(res.body)![1]!;
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(inline).digest("base64");
    expect(res.headers["content-security-policy"]).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

describe.skipIf(!CHROMIUM)("#13.7 #13.34 the docs page in headless Chromium", () => {
  it("renders a deep link (/docs/#tag/deals) with its strict CSP and no violation", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const { stdout, stderr } = await promisify(execFile)(
      CHROMIUM!,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        // No outside traffic (the machine has no network): no background, component or sync requests.
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${mkdtempSync(join(tmpdir(), "cts-chromium-"))}`,
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=15000",
        "--dump-dom",
        `http://127.0.0.1:${port}/docs/#tag/deals`,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
    );
    const console = stderr.split("\n").filter((line) => line.includes(":CONSOLE:"));
    expect(console.filter((line) => /Refused|Content Security Policy|error/i.test(line))).toEqual([]);
    expect(stdout).toContain("<title>Commission Tracking Service API reference</title>");
    expect(stdout).toMatch(/id="[^"]*tag\/deals"/);
    expect(stdout).toMatch(/id="[^"]*tag\/deals\/POST\/api\/v1\/deals\/\{id\}\/approve"/);
    expect(stdout).not.toMatch(/Ask AI|Generate MCP/i);
    // Everything the page asked for was served: no 401 for a /favicon.ico the gate refuses, no 404.
    await t.requestLog.flush();
    const refused = await t.db.db
      .selectFrom("request_logs")
      .select(["path", "status"])
      .where("status", ">=", 400)
      .execute();
    expect(refused).toEqual([]);
  }, 180_000);
});
