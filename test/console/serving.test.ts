import { readdirSync, readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_PAGES } from "../../src/app/console.js";
import { consoleCsp } from "../../src/app/security-headers.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

// The console as `npm run build` (the `prepare` step of `npm install`) leaves it in dist/web.
const BUILT = new URL("../../dist/web/", import.meta.url);
const ASSETS = readdirSync(new URL("assets/", BUILT)).filter((name) => /\.(js|css)$/.test(name));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("the web console at {origin}/", () => {
  it("every console page answers the one HTML page, without credentials, under the console's CSP", async () => {
    const html = readFileSync(new URL("index.html", BUILT), "utf8");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script anywhere
    for (const page of CONSOLE_PAGES) {
      const res = await get(page.replace(/:\w+/g, "usr_123"));
      expect(res.statusCode, page).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["content-security-policy"]).toBe(consoleCsp());
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toBe(html);
    }
  });

  it("a page opened with the console's own query (a bookmark, a return after sign-in) is the same page", async () => {
    const html = readFileSync(new URL("index.html", BUILT), "utf8");
    for (const url of [
      "/sign-in?return_to=%2Fstatements%2F2026-Q4%3Fuser%3Dusr_1&reason=expired",
      "/statements/2026-Q4?user=usr_1",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(html);
    }
  });

  it("serves each hashed asset for a year, precompressed, with a 304 on its ETag", async () => {
    expect(ASSETS.length).toBeGreaterThan(1);
    for (const name of ASSETS) {
      const identity = readFileSync(new URL(`assets/${name}`, BUILT));
      const br = await get(`/assets/${name}`, { "accept-encoding": "gzip, br" });
      expect(br.statusCode, name).toBe(200);
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(br.headers["content-encoding"]).toBe("br");
      // Buffer#equals: toEqual walks a buffer byte by byte (seconds for the 450 KB entry chunk).
      expect(br.rawPayload.equals(readFileSync(new URL(`assets/${name}.br`, BUILT))), name).toBe(true);
      expect(brotliDecompressSync(br.rawPayload).equals(identity), name).toBe(true);
      const plain = await get(`/assets/${name}`, { "accept-encoding": "identity" });
      expect(plain.rawPayload.equals(identity), name).toBe(true);
      const again = await get(`/assets/${name}`, {
        "accept-encoding": "br",
        "if-none-match": br.headers.etag as string,
      });
      expect(again.statusCode).toBe(304);
    }
  });

  it("an unknown asset is a 404, and paths that are not console pages keep the default deny", async () => {
    const missing = await get("/assets/nothing-here.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("not_found");
    // /people and /deals are pages (the lists, #18 and #28); a path below a person or a deal is not.
    for (const path of [
      "/deals/deal_1/lines",
      "/people/usr_1/deals",
      "/statements/2026-Q3/lines",
      "/index.html",
      "/assets",
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(401);
      expect(res.json().error.code).toBe("unauthorized");
    }
  });

  describe("a page a browser opens that no route answers", () => {
    const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

    it("gets the console's page with 404 (the console draws its not-found page), signed in or not", async () => {
      const html = readFileSync(new URL("index.html", BUILT), "utf8");
      const { key } = await t.key("read");
      for (const path of ["/nope", "/deals/x/y", "/statements/2026-Q3/lines", "/people/usr_1/deals", "/nope?x=1"]) {
        for (const headers of [BROWSER, { ...BROWSER, ...bearer(key) }, { accept: "text/html" }]) {
          const res = await get(path, headers);
          expect(res.statusCode, path).toBe(404);
          expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
          expect(res.headers["content-security-policy"]).toBe(consoleCsp());
          expect(res.body).toBe(html);
        }
      }
    });

    it("/api keeps the API's answers: 401 without credentials, 404 or 405 with a key, JSON", async () => {
      const { key } = await t.key("read");
      for (const path of ["/api/v1/nope", "/api/v1/deals/x/y", "/api", "/api/nope", "/%61pi/v1/nope"]) {
        const anonymous = await get(path, BROWSER);
        expect(anonymous.statusCode, path).toBe(401);
        expect(anonymous.json().error.code).toBe("unauthorized");
        const keyed = await get(path, { ...BROWSER, ...bearer(key) });
        expect(keyed.statusCode, path).toBe(404);
        expect(keyed.json().error.code).toBe("not_found");
      }
      const wrongMethod = await get("/api/v1/deals/deal_1/approve", { ...BROWSER, ...bearer(key) });
      expect(wrongMethod.statusCode).toBe(405);
      expect(wrongMethod.json().error.code).toBe("method_not_allowed");
    });

    it("a program (no HTML asked), another method, or a path another method knows keeps the default deny", async () => {
      const cases = [
        { method: "GET", url: "/nope", headers: { accept: "application/json" } },
        { method: "GET", url: "/nope", headers: { accept: "*/*" } },
        { method: "POST", url: "/nope", headers: BROWSER },
        { method: "DELETE", url: "/deals/x/y", headers: BROWSER },
        { method: "GET", url: "/mcp", headers: BROWSER }, // POST /mcp exists: a 405 once admitted
      ] as const;
      for (const { method, url, headers } of cases) {
        const res = await t.app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url} ${headers.accept}`).toBe(401);
        expect(res.json().error.code).toBe("unauthorized");
      }
    });
  });
});
