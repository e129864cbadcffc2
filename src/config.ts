import { existsSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";

/** The only reader of process.env (API.md §0). Every problem is reported, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const port = (name: string) =>
  z
    .string()
    .regex(/^\d{1,5}$/, `${name} must be a port number (0-65535)`)
    .transform(Number)
    .refine((n) => n <= 65535, `${name} must be a port number (0-65535)`);

const slots = (name: string) =>
  z
    .string()
    .regex(/^\d{1,3}$/, `${name} must be a whole number from 1 to 256`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 256, `${name} must be a whole number from 1 to 256`);

const wholeInRange = (name: string, unit: string, min: number, max: number) => {
  const message = `${name} must be a whole number of ${unit} (${min}-${max})`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
};

const EnvSchema = z.object({
  CTS_ENV: z
    .string()
    .regex(/^[a-z][a-z0-9]{1,15}$/, "CTS_ENV must be lowercase letters and digits, 2-16 long, starting with a letter")
    .default("demo"),
  CTS_HOST: z.string().min(1, "CTS_HOST must not be empty").default("127.0.0.1"),
  CTS_PORT: port("CTS_PORT").default(3000),
  CTS_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "CTS_PUBLIC_URL must be an http(s) origin such as https://cts.example.com" })
    .transform((u) => new URL(u).origin)
    .optional(),
  CTS_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "REDIS_URL must start with redis:// or rediss://")
    .optional(),
  CTS_TLS_CERT: z.string().optional(),
  CTS_TLS_KEY: z.string().optional(),
  CTS_TRUST_PROXY: z.string().optional(),
  CTS_SECRET_KEY: z.string().optional(),
  CTS_LOG_LEVEL: z.enum(LOG_LEVELS, { error: `CTS_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  CTS_METRICS_PORT: port("CTS_METRICS_PORT").optional(),
  CTS_SHUTDOWN_TIMEOUT: z
    .string()
    .regex(/^\d+$/, "CTS_SHUTDOWN_TIMEOUT must be a whole number of seconds")
    .transform(Number)
    .default(20),
  CTS_WORKER_JOB_CONCURRENCY: slots("CTS_WORKER_JOB_CONCURRENCY").default(4),
  CTS_WORKER_WEBHOOK_CONCURRENCY: slots("CTS_WORKER_WEBHOOK_CONCURRENCY").default(8),
  CTS_REQUEST_TIMEOUT: z
    .string()
    .regex(/^\d+$/, "CTS_REQUEST_TIMEOUT must be a whole number of seconds (1-3600)")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 3600, "CTS_REQUEST_TIMEOUT must be a whole number of seconds (1-3600)")
    .default(30),
  CTS_SESSION_IDLE_MINUTES: wholeInRange("CTS_SESSION_IDLE_MINUTES", "minutes", 1, 43_200).default(480),
  CTS_SESSION_MAX_HOURS: wholeInRange("CTS_SESSION_MAX_HOURS", "hours", 1, 8_760).default(168),
  CTS_PLAN_IMPACT_INLINE_LINES: wholeInRange("CTS_PLAN_IMPACT_INLINE_LINES", "lines", 1, 1_000_000).default(20_000),
  CTS_WEBHOOK_ALLOW_HOSTS: z.string().optional(),
  CTS_WEBHOOK_ALLOW_HTTP: z.enum(["0", "1"], { error: "CTS_WEBHOOK_ALLOW_HTTP must be 0 or 1" }).optional(),
  CTS_TEST_CRASH_AFTER_COMMIT: z.enum(["0", "1"], { error: "CTS_TEST_CRASH_AFTER_COMMIT must be 0 or 1" }).optional(),
  CTS_SMTP_URL: z.string().optional(),
  CTS_MAIL_FROM: z.string().optional(),
  CTS_OIDC_ISSUER: z.string().optional(),
  CTS_OIDC_CLIENT_ID: z.string().optional(),
  CTS_OIDC_CLIENT_SECRET: z.string().optional(),
});

export type TrustProxy = false | number | string[];

export interface Config {
  env: string;
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  tls: { cert: string; key: string } | undefined;
  trustProxy: TrustProxy;
  /** 32 bytes from CTS_SECRET_KEY; undefined in embedded mode until the data dir provides one. */
  secretKey: Buffer | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  metricsPort: number | undefined;
  shutdownTimeoutSeconds: number;
  /** Background work slots per source, so one source (hanging webhook receivers) never starves another. */
  workerConcurrency: { jobs: number; webhooks: number };
  /** How long a request's headers and body may take to arrive (then 408). */
  requestTimeoutSeconds: number;
  /** A signed-in session ends after this long unused, and this long after sign-in whatever happens (API.md §11). */
  sessions: { idleMinutes: number; maxHours: number };
  /** The most lines a plan-change impact computes within the request; a larger one answers 202 with a job (API.md §12). */
  planImpactInlineLines: number;
  webhookAllowHosts: string[];
  webhookAllowHttp: boolean;
  /** Tests only (CTS_TEST_CRASH_AFTER_COMMIT=1): SIGKILL right after an idempotent request commits. */
  testCrashAfterCommit: boolean;
  /** CTS_OIDC_ISSUER, CTS_OIDC_CLIENT_ID and CTS_OIDC_CLIENT_SECRET: sign-in with OpenID Connect, when set. */
  oidc: OidcConfig | undefined;
  /** CTS_SMTP_URL and CTS_MAIL_FROM (with CTS_PUBLIC_URL): email notifications, when set (docs/notifications.md). */
  mail: MailConfig | undefined;
}

export interface MailConfig {
  /** `smtp://` or `smtps://`, credentials in the URL: never logged. */
  smtpUrl: string;
  from: string;
  publicUrl: string;
}

/** CTS_SMTP_URL and CTS_MAIL_FROM together or neither; email needs CTS_PUBLIC_URL for its links. */
function parseMail(raw: Record<string, string | undefined>, problems: string[]): MailConfig | undefined {
  const { CTS_SMTP_URL: smtpUrl, CTS_MAIL_FROM: from, CTS_PUBLIC_URL: publicUrl } = raw;
  if (smtpUrl === undefined && from === undefined) return undefined;
  if (smtpUrl === undefined || from === undefined) {
    problems.push("CTS_SMTP_URL and CTS_MAIL_FROM must be set together for email notifications");
    return undefined;
  }
  let protocol = "";
  try {
    protocol = new URL(smtpUrl).protocol;
  } catch {
    // The value may hold a password: never repeated in the message.
  }
  if (protocol !== "smtp:" && protocol !== "smtps:") {
    problems.push("CTS_SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com");
  }
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(from) && !/^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) {
    problems.push('CTS_MAIL_FROM must be an address such as cts@example.com or "Commissions <cts@example.com>"');
  }
  if (publicUrl === undefined) {
    problems.push("CTS_SMTP_URL requires CTS_PUBLIC_URL: every link in a message names the service's public origin");
  }
  return publicUrl === undefined ? undefined : { smtpUrl, from, publicUrl: publicUrl.replace(/\/+$/, "") };
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const OIDC_VARS = ["CTS_OIDC_ISSUER", "CTS_OIDC_CLIENT_ID", "CTS_OIDC_CLIENT_SECRET"] as const;
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * All three OIDC variables or none. The issuer is an https URL without query or fragment; plain http
 * only for a loopback provider (development, tests), and never with CTS_ENV=live.
 */
function parseOidc(raw: Record<string, string | undefined>, problems: string[]): OidcConfig | undefined {
  const missing = OIDC_VARS.filter((name) => raw[name] === undefined);
  if (missing.length === OIDC_VARS.length) return undefined;
  if (missing.length > 0) {
    problems.push(
      `${OIDC_VARS.join(", ")} must be set together for OpenID Connect sign-in; missing: ${missing.join(", ")}`,
    );
    return undefined;
  }
  const issuer = raw.CTS_OIDC_ISSUER!;
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  const local = url?.protocol === "http:" && LOOPBACK_HOST.test(url.hostname) && raw.CTS_ENV !== "live";
  if (!url || url.search || url.hash || url.username || !(url.protocol === "https:" || local)) {
    problems.push(
      "CTS_OIDC_ISSUER must be the provider's https issuer URL without query or fragment, e.g. https://login.example.com (http only for a loopback provider, never with CTS_ENV=live)",
    );
    return undefined;
  }
  return { issuer, clientId: raw.CTS_OIDC_CLIENT_ID!, clientSecret: raw.CTS_OIDC_CLIENT_SECRET! };
}

function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || raw === "" || raw === "0") return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const cidrs = raw.split(",").map((s) => s.trim());
  const bad = cidrs.filter((c) => !isIP(c.split("/")[0] ?? "") || !/^[^/]+(\/\d{1,3})?$/.test(c));
  if (bad.length > 0) {
    problems.push(
      `CTS_TRUST_PROXY must be a hop count (e.g. 1) or comma-separated proxy addresses/CIDRs; bad: ${bad.join(", ")}`,
    );
  }
  return cidrs;
}

function parseSecretKey(raw: string | undefined, problems: string[]): Buffer | undefined {
  if (raw === undefined) return undefined;
  const bytes = Buffer.from(raw, "base64");
  if (!/^[A-Za-z0-9+/]+=*$/.test(raw) || bytes.length !== 32) {
    problems.push("CTS_SECRET_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)");
    return undefined;
  }
  return bytes;
}

function readPemFile(name: string, path: string | undefined, problems: string[]): string | undefined {
  if (path === undefined) return undefined;
  if (!existsSync(path)) {
    problems.push(`${name} points to ${path}, which does not exist`);
    return undefined;
  }
  try {
    const text = readFileSync(path, "utf8");
    if (!text.includes("-----BEGIN")) problems.push(`${name} (${path}) is not a PEM file`);
    return text;
  } catch (err) {
    problems.push(`${name} (${path}) cannot be read: ${(err as Error).message}`);
    return undefined;
  }
}

/** Parses and cross-checks the environment; throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(issue.message);
  // The cross-checks read the raw strings, so one bad value never hides another problem.
  const raw = { ...present, CTS_ENV: present.CTS_ENV ?? "demo" } as Record<string, string | undefined>;
  const trustProxy = parseTrustProxy(raw.CTS_TRUST_PROXY, problems);
  const secretKey = parseSecretKey(raw.CTS_SECRET_KEY, problems);
  const oidc = parseOidc(raw, problems);
  const mail = parseMail(raw, problems);
  if ((raw.CTS_TLS_CERT === undefined) !== (raw.CTS_TLS_KEY === undefined)) {
    problems.push("CTS_TLS_CERT and CTS_TLS_KEY must be set together");
  }
  const cert = readPemFile("CTS_TLS_CERT", raw.CTS_TLS_CERT, problems);
  const key = readPemFile("CTS_TLS_KEY", raw.CTS_TLS_KEY, problems);
  if (raw.DATABASE_URL && raw.CTS_SECRET_KEY === undefined) {
    problems.push("CTS_SECRET_KEY is required with DATABASE_URL so every process shares it");
  }
  const tlsConfigured = raw.CTS_TLS_CERT !== undefined && raw.CTS_TLS_KEY !== undefined;
  if (raw.CTS_ENV === "live" && !tlsConfigured && trustProxy === false) {
    problems.push(
      "CTS_ENV=live refuses plain HTTP: set CTS_TLS_CERT and CTS_TLS_KEY, or CTS_TRUST_PROXY=1 behind a TLS-terminating proxy",
    );
  }
  if (raw.CTS_ENV === "live" && raw.CTS_PUBLIC_URL === undefined) {
    problems.push(
      "CTS_ENV=live requires CTS_PUBLIC_URL (e.g. https://commissions.example.com): the origin clients use in links and the OpenAPI servers entry",
    );
  }
  const webhookAllowHosts = (raw.CTS_WEBHOOK_ALLOW_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  if (raw.CTS_ENV === "live" && (webhookAllowHosts.length > 0 || raw.CTS_WEBHOOK_ALLOW_HTTP === "1")) {
    problems.push(
      "CTS_WEBHOOK_ALLOW_HOSTS and CTS_WEBHOOK_ALLOW_HTTP are for development only and refused with CTS_ENV=live",
    );
  }
  if (raw.CTS_ENV === "live" && raw.CTS_TEST_CRASH_AFTER_COMMIT === "1") {
    problems.push("CTS_TEST_CRASH_AFTER_COMMIT is for tests only and refused with CTS_ENV=live");
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const v = parsed.data;
  return {
    env: v.CTS_ENV,
    host: v.CTS_HOST,
    port: v.CTS_PORT,
    publicUrl: v.CTS_PUBLIC_URL,
    dataDir: resolve(v.CTS_DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    tls: cert !== undefined && key !== undefined ? { cert, key } : undefined,
    trustProxy,
    secretKey,
    logLevel: v.CTS_LOG_LEVEL,
    metricsPort: v.CTS_METRICS_PORT,
    shutdownTimeoutSeconds: v.CTS_SHUTDOWN_TIMEOUT,
    workerConcurrency: { jobs: v.CTS_WORKER_JOB_CONCURRENCY, webhooks: v.CTS_WORKER_WEBHOOK_CONCURRENCY },
    requestTimeoutSeconds: v.CTS_REQUEST_TIMEOUT,
    sessions: { idleMinutes: v.CTS_SESSION_IDLE_MINUTES, maxHours: v.CTS_SESSION_MAX_HOURS },
    planImpactInlineLines: v.CTS_PLAN_IMPACT_INLINE_LINES,
    webhookAllowHosts,
    webhookAllowHttp: v.CTS_WEBHOOK_ALLOW_HTTP === "1",
    testCrashAfterCommit: v.CTS_TEST_CRASH_AFTER_COMMIT === "1",
    oidc,
    mail,
  };
}

/** The stdio MCP bridge's own settings (API.md §9); separate so `cts mcp` needs no server config. */
export function loadBridgeConfig(env: NodeJS.ProcessEnv = process.env): { apiUrl: string; apiKey: string } {
  const problems: string[] = [];
  const apiUrl = env.CTS_API_URL;
  const apiKey = env.CTS_API_KEY;
  if (!apiUrl) problems.push("CTS_API_URL is not set: the service's origin, e.g. http://127.0.0.1:3000");
  else if (!/^https?:\/\//.test(apiUrl)) problems.push("CTS_API_URL must be an http(s) URL");
  if (!apiKey) problems.push("CTS_API_KEY is not set: an API key (cts_<env>_…) for the assistant");
  if (problems.length > 0) throw new ConfigError(problems);
  return { apiUrl: new URL(apiUrl!).origin, apiKey: apiKey! };
}

/** Where the data lives, read even when other settings are invalid (`cts doctor` still checks it). */
export function connectionSettings(
  env: NodeJS.ProcessEnv = process.env,
): Pick<Config, "databaseUrl" | "redisUrl" | "dataDir"> {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    dataDir: resolve(env.CTS_DATA_DIR || "./data"),
  };
}
