import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

const SECRET = Buffer.alloc(32, 7).toString("base64");
const PUBLIC = "https://commissions.example.com";
let dir: string;
let certPath: string;
let keyPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cts-config-"));
  certPath = join(dir, "cert.pem");
  keyPath = join(dir, "key.pem");
  writeFileSync(certPath, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
  writeFileSync(keyPath, "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n");
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The problems loadConfig reports for `env` (it must throw a ConfigError). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("defaults", () => {
  it("an empty environment is a demo deployment on 127.0.0.1:3000 with embedded storage", () => {
    expect(loadConfig({})).toEqual({
      env: "demo",
      host: "127.0.0.1",
      port: 3000,
      publicUrl: undefined,
      dataDir: resolve("./data"),
      databaseUrl: undefined,
      redisUrl: undefined,
      tls: undefined,
      trustProxy: false,
      secretKey: undefined,
      logLevel: "info",
      metricsPort: undefined,
      shutdownTimeoutSeconds: 20,
      workerConcurrency: { jobs: 4, webhooks: 8 },
      requestTimeoutSeconds: 30,
      sessions: { idleMinutes: 480, maxHours: 168 },
      planImpactInlineLines: 20_000,
      webhookAllowHosts: [],
      webhookAllowHttp: false,
      testCrashAfterCommit: false,
    });
  });

  it("empty strings count as unset", () => {
    expect(loadConfig({ CTS_ENV: "", CTS_PORT: "", CTS_LOG_LEVEL: "" })).toMatchObject({
      env: "demo",
      port: 3000,
      logLevel: "info",
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      CTS_ENV: "staging",
      CTS_HOST: "0.0.0.0",
      CTS_PORT: "8443",
      CTS_PUBLIC_URL: "https://cts.example.com/some/path",
      CTS_DATA_DIR: dir,
      DATABASE_URL: "postgres://u@db/cts",
      REDIS_URL: "redis://cache:6379",
      CTS_TLS_CERT: certPath,
      CTS_TLS_KEY: keyPath,
      CTS_TRUST_PROXY: "10.0.0.0/8, 192.168.1.1",
      CTS_SECRET_KEY: SECRET,
      CTS_LOG_LEVEL: "debug",
      CTS_METRICS_PORT: "9464",
      CTS_SHUTDOWN_TIMEOUT: "5",
      CTS_REQUEST_TIMEOUT: "45",
      CTS_WEBHOOK_ALLOW_HOSTS: "localhost:8080, 127.0.0.1",
      CTS_WEBHOOK_ALLOW_HTTP: "1",
    });
    expect(config).toMatchObject({
      env: "staging",
      host: "0.0.0.0",
      port: 8443,
      publicUrl: "https://cts.example.com",
      dataDir: dir,
      databaseUrl: "postgres://u@db/cts",
      redisUrl: "redis://cache:6379",
      trustProxy: ["10.0.0.0/8", "192.168.1.1"],
      logLevel: "debug",
      metricsPort: 9464,
      shutdownTimeoutSeconds: 5,
      requestTimeoutSeconds: 45,
      webhookAllowHosts: ["localhost:8080", "127.0.0.1"],
      webhookAllowHttp: true,
    });
    expect(config.tls?.cert).toContain("BEGIN CERTIFICATE");
    expect(config.tls?.key).toContain("BEGIN PRIVATE KEY");
    expect(config.secretKey).toEqual(Buffer.alloc(32, 7));
  });

  it("CTS_TRUST_PROXY takes a hop count; 0 means no proxy", () => {
    expect(loadConfig({ CTS_TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ CTS_TRUST_PROXY: "0" }).trustProxy).toBe(false);
  });
});

describe("bad values: one message each", () => {
  it.each([
    ["CTS_ENV", "Live", /^CTS_ENV must be lowercase/],
    ["CTS_ENV", "x", /^CTS_ENV must be lowercase/],
    ["CTS_ENV", "a".repeat(17), /^CTS_ENV must be lowercase/],
    ["CTS_PORT", "http", /^CTS_PORT must be a port number/],
    ["CTS_PORT", "70000", /^CTS_PORT must be a port number/],
    ["CTS_METRICS_PORT", "-1", /^CTS_METRICS_PORT must be a port number/],
    ["CTS_PUBLIC_URL", "ftp://cts.example.com", /^CTS_PUBLIC_URL must be an http\(s\) origin/],
    ["CTS_PUBLIC_URL", "not a url", /^CTS_PUBLIC_URL must be an http\(s\) origin/],
    ["DATABASE_URL", "mysql://db/cts", /^DATABASE_URL must start with postgres/],
    ["REDIS_URL", "http://cache", /^REDIS_URL must start with redis/],
    ["CTS_LOG_LEVEL", "loud", /^CTS_LOG_LEVEL must be one of fatal, error/],
    ["CTS_SHUTDOWN_TIMEOUT", "soon", /^CTS_SHUTDOWN_TIMEOUT must be a whole number/],
    ["CTS_REQUEST_TIMEOUT", "30s", /^CTS_REQUEST_TIMEOUT must be a whole number of seconds \(1-3600\)$/],
    ["CTS_REQUEST_TIMEOUT", "0", /^CTS_REQUEST_TIMEOUT must be a whole number of seconds \(1-3600\)$/],
    ["CTS_REQUEST_TIMEOUT", "3601", /^CTS_REQUEST_TIMEOUT must be a whole number of seconds \(1-3600\)$/],
    ["CTS_WEBHOOK_ALLOW_HTTP", "yes", /^CTS_WEBHOOK_ALLOW_HTTP must be 0 or 1/],
    ["CTS_TRUST_PROXY", "everyone", /^CTS_TRUST_PROXY must be a hop count .*bad: everyone$/],
    ["CTS_SECRET_KEY", "too-short", /^CTS_SECRET_KEY must be 32 random bytes in base64/],
    ["CTS_SECRET_KEY", Buffer.alloc(16).toString("base64"), /^CTS_SECRET_KEY must be 32 random bytes/],
    ["CTS_SECRET_KEY", Buffer.alloc(32).toString("hex"), /^CTS_SECRET_KEY must be 32 random bytes/],
  ])("%s=%s", (name, value, message) => {
    // A valid secret key as a baseline, so DATABASE_URL's companion check stays quiet.
    const problems = problemsOf({ CTS_SECRET_KEY: SECRET, [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it("reports several bad values at once, one message each, in the error's text too", () => {
    const env = {
      CTS_ENV: "Prod",
      CTS_PORT: "eighty",
      CTS_LOG_LEVEL: "chatty",
      CTS_SECRET_KEY: "short",
      CTS_TRUST_PROXY: "nope",
    };
    const problems = problemsOf(env);
    expect(problems).toHaveLength(5);
    expect(problems.map((p) => p.split(" ")[0]).sort()).toEqual([
      "CTS_ENV",
      "CTS_LOG_LEVEL",
      "CTS_PORT",
      "CTS_SECRET_KEY",
      "CTS_TRUST_PROXY",
    ]);
    expect(() => loadConfig(env)).toThrow(/^Invalid configuration:\n {2}- /);
  });

  it("a bad value never hides a cross-check problem", () => {
    const problems = problemsOf({ CTS_PORT: "eighty", CTS_ENV: "live", CTS_PUBLIC_URL: PUBLIC });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^CTS_PORT/);
    expect(problems[1]).toMatch(/^CTS_ENV=live refuses plain HTTP/);
  });
});

describe("cross-checks", () => {
  it("CTS_ENV=live without TLS or a trusted proxy → error", () => {
    expect(problemsOf({ CTS_ENV: "live", CTS_PUBLIC_URL: PUBLIC })).toEqual([
      "CTS_ENV=live refuses plain HTTP: set CTS_TLS_CERT and CTS_TLS_KEY, or CTS_TRUST_PROXY=1 behind a TLS-terminating proxy",
    ]);
    expect(problemsOf({ CTS_ENV: "live", CTS_TRUST_PROXY: "0", CTS_PUBLIC_URL: PUBLIC })).toHaveLength(1);
  });

  it("#13.8 CTS_ENV=live without CTS_PUBLIC_URL → error; other environments use the request's origin", () => {
    expect(problemsOf({ CTS_ENV: "live", CTS_TRUST_PROXY: "1" })).toEqual([
      "CTS_ENV=live requires CTS_PUBLIC_URL (e.g. https://commissions.example.com): the origin clients use in links and the OpenAPI servers entry",
    ]);
    expect(loadConfig({ CTS_ENV: "staging", CTS_TRUST_PROXY: "1" }).publicUrl).toBeUndefined();
  });

  it("CTS_ENV=live behind a trusted proxy, or with TLS, starts", () => {
    const live = { CTS_ENV: "live", CTS_PUBLIC_URL: PUBLIC };
    expect(loadConfig({ ...live, CTS_TRUST_PROXY: "1" })).toMatchObject({
      env: "live",
      trustProxy: 1,
      publicUrl: PUBLIC,
    });
    expect(loadConfig({ ...live, CTS_TRUST_PROXY: "10.0.0.1" }).trustProxy).toEqual(["10.0.0.1"]);
    expect(loadConfig({ ...live, CTS_TLS_CERT: certPath, CTS_TLS_KEY: keyPath }).tls).toBeDefined();
  });

  it("#13.22 CTS_TEST_CRASH_AFTER_COMMIT is off by default and refused with CTS_ENV=live", () => {
    expect(loadConfig({ CTS_TEST_CRASH_AFTER_COMMIT: "1" }).testCrashAfterCommit).toBe(true);
    expect(
      problemsOf({
        CTS_ENV: "live",
        CTS_TRUST_PROXY: "1",
        CTS_PUBLIC_URL: "https://commissions.example.com",
        CTS_TEST_CRASH_AFTER_COMMIT: "1",
      }),
    ).toEqual(["CTS_TEST_CRASH_AFTER_COMMIT is for tests only and refused with CTS_ENV=live"]);
  });

  it("CTS_TLS_CERT without CTS_TLS_KEY (and the reverse) → error", () => {
    expect(problemsOf({ CTS_TLS_CERT: certPath })).toEqual(["CTS_TLS_CERT and CTS_TLS_KEY must be set together"]);
    expect(problemsOf({ CTS_TLS_KEY: keyPath })).toEqual(["CTS_TLS_CERT and CTS_TLS_KEY must be set together"]);
  });

  it("a missing TLS file → error naming the path", () => {
    const missing = join(dir, "nope.pem");
    expect(problemsOf({ CTS_TLS_CERT: missing, CTS_TLS_KEY: keyPath })).toEqual([
      `CTS_TLS_CERT points to ${missing}, which does not exist`,
    ]);
  });

  it("a TLS file that is not PEM → error naming the path", () => {
    const notPem = join(dir, "not.pem");
    writeFileSync(notPem, "hello");
    expect(problemsOf({ CTS_TLS_CERT: certPath, CTS_TLS_KEY: notPem })).toEqual([
      `CTS_TLS_KEY (${notPem}) is not a PEM file`,
    ]);
  });

  it("DATABASE_URL without CTS_SECRET_KEY → error; with it, fine", () => {
    expect(problemsOf({ DATABASE_URL: "postgres://u@db/cts" })).toEqual([
      "CTS_SECRET_KEY is required with DATABASE_URL so every process shares it",
    ]);
    expect(loadConfig({ DATABASE_URL: "postgresql://u@db/cts", CTS_SECRET_KEY: SECRET }).databaseUrl).toBe(
      "postgresql://u@db/cts",
    );
  });

  it("CTS_WEBHOOK_ALLOW_HOSTS or CTS_WEBHOOK_ALLOW_HTTP with CTS_ENV=live → error", () => {
    const live = { CTS_ENV: "live", CTS_TRUST_PROXY: "1", CTS_PUBLIC_URL: PUBLIC };
    const message =
      "CTS_WEBHOOK_ALLOW_HOSTS and CTS_WEBHOOK_ALLOW_HTTP are for development only and refused with CTS_ENV=live";
    expect(problemsOf({ ...live, CTS_WEBHOOK_ALLOW_HOSTS: "localhost:8080" })).toEqual([message]);
    expect(problemsOf({ ...live, CTS_WEBHOOK_ALLOW_HTTP: "1" })).toEqual([message]);
    expect(loadConfig({ ...live, CTS_WEBHOOK_ALLOW_HTTP: "0" }).webhookAllowHttp).toBe(false);
    expect(loadConfig({ CTS_ENV: "staging", CTS_WEBHOOK_ALLOW_HOSTS: "localhost" }).webhookAllowHosts).toEqual([
      "localhost",
    ]);
  });
});
