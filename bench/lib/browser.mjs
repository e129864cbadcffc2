// Console benchmarks in headless Chromium (bench/approvals.mjs): a `cts serve` of the built code on a
// data dir, a signed-in browser context, and one page measured to its "cts:rendered" mark
// (web/src/ui/useRenderedMark.ts) with the same-run baseline of the API calls it made, fetched at once.
// bench/console.mjs keeps its own copy of these steps (written first).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const MARK = "cts:rendered";

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `cts serve` on this data dir and port, once /healthz answers; `stop()` ends it. */
export async function serveConsole(root, dataDir, port) {
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    CTS_DATA_DIR: dataDir,
    CTS_PORT: String(port),
    CTS_HOST: "127.0.0.1",
    CTS_LOG_LEVEL: "warn",
  };
  let output = "";
  const server = spawn(process.execPath, ["dist/cli/main.js", "serve"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.on("data", (d) => (output += d));
  server.stderr.on("data", (d) => (output += d));
  const stop = async () => {
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`cts serve exited (${server.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, env, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`cts serve did not answer /healthz within 120 s:\n${output}`);
}

/** A browser context with this person's session cookie (signed in through the API), and its CSRF token. */
export async function signedIn(browser, url, email, password) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  const login = await context.request.post("/api/v1/auth/login", {
    headers: { Origin: url },
    data: { email, password },
  });
  if (!login.ok()) throw new Error(`login ${email} → ${login.status()}`);
  const { csrf_token } = await login.json();
  return { context, csrf: csrf_token };
}

/** One warm-up load, then `runs` loads (a new tab each, the same browser cache); each to the page's mark. */
export async function measurePage(context, path, runs) {
  const times = [];
  const firstApi = [];
  let calls = [];
  let page;
  for (let run = 0; run <= runs; run++) {
    await page?.close();
    page = await context.newPage();
    const requested = [];
    page.on("request", (request) => {
      const u = new URL(request.url());
      if (request.method() === "GET" && u.pathname.startsWith("/api/v1/")) requested.push(u.pathname + u.search);
    });
    await page.goto(path);
    const at = await page
      .waitForFunction((mark) => performance.getEntriesByName(mark)[0]?.startTime, MARK, { timeout: 20_000 })
      .then((handle) => handle.jsonValue())
      .catch(() => undefined);
    if (at === undefined) {
      await page.close();
      return { missing: true };
    }
    const apiStart = await page.evaluate(() =>
      Math.min(
        ...performance
          .getEntriesByType("resource")
          .filter((e) => e.name.includes("/api/v1/"))
          .map((e) => e.startTime),
      ),
    );
    if (run > 0) {
      times.push(at);
      firstApi.push(apiStart);
    }
    calls = [...requested];
  }
  await page.waitForLoadState("networkidle");
  const baseline = [];
  for (let run = 0; run <= runs; run++) {
    const ms = await page.evaluate(async (paths) => {
      const t0 = performance.now();
      await Promise.all(
        paths.map((p) =>
          fetch(p, { credentials: "same-origin", headers: { Accept: "application/json" } }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
      return performance.now() - t0;
    }, calls);
    if (run > 0) baseline.push(ms);
  }
  await page.close();
  return {
    median_ms: Math.round(quantile(times, 0.5)),
    p90_ms: Math.round(quantile(times, 0.9)),
    first_api_call_median_ms: Math.round(quantile(firstApi, 0.5)),
    baseline_median_ms: Math.round(quantile(baseline, 0.5)),
    api_calls: calls.length,
    calls,
  };
}

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
}
