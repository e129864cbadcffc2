import { X509Certificate } from "node:crypto";
import type { Command } from "commander";
import { type Config, ConfigError, connectionSettings, loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/connect.js";
import { acquireDataDirLock, lockHolder } from "../db/data-dir-lock.js";
import { restrictToOwner } from "../db/data-dir-mode.js";
import { pendingMigrations } from "../db/migrate.js";
import { embeddedPath } from "../deployment.js";
import { ownerSocketPath, sendOwnerCommand } from "../owner/socket.js";
import { RedisStore } from "../rate-limit/redis-store.js";
import { FIRST_ADMIN_COMMAND, FIRST_ADMIN_NPM_COMMAND, hasActiveAdmin } from "../users/index.js";
import { readDatabaseTime } from "./doctor-repository.js";
import { hasEmbeddedDatabase } from "./owner.js";

interface Finding {
  ok: boolean;
  /** Worth acting on but not a failure: printed WARN, the exit code stays 0. */
  warn?: boolean;
  check: string;
  detail: string;
}

const MAX_SKEW_MS = 2000;
const CERT_WARN_DAYS = 14;

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}

type Where = Pick<Config, "databaseUrl" | "redisUrl" | "dataDir">;

/** Migrations and clock, asked of an open database (PostgreSQL, or the embedded one) or the running server. */
function schemaAndClock(pending: string[], databaseNow: Date, before: number, after: number): Finding[] {
  const skew = Math.abs(databaseNow.getTime() - (before + after) / 2);
  return [
    pending.length === 0
      ? { ok: true, check: "migrations", detail: "all applied" }
      : {
          ok: false,
          check: "migrations",
          detail: `not applied yet: ${pending.join(", ")} (they run when cts serve or cts worker starts)`,
        },
    skew <= MAX_SKEW_MS
      ? { ok: true, check: "clock", detail: `within ${Math.round(skew)} ms of the database` }
      : {
          ok: false,
          check: "clock",
          detail: `${Math.round(skew)} ms apart from the database's clock; run NTP (rate limits and leases use time)`,
        },
  ];
}

async function inspect(database: Database): Promise<Finding[]> {
  const before = Date.now();
  const now = await readDatabaseTime(database.db);
  const after = Date.now();
  const pending = await pendingMigrations(database.db);
  const findings = schemaAndClock(pending, now, before, after);
  // Before the first migration there is no users table to ask.
  if (pending.length > 0) return findings;
  return [...findings, adminFinding(await hasActiveAdmin(database.db))];
}

/** The first run: with no active admin user nobody can sign in to the console to set it up. */
function adminFinding(hasAdmin: boolean): Finding {
  if (hasAdmin) return { ok: true, check: "admin", detail: "an active admin user exists" };
  return {
    ok: true,
    warn: true,
    check: "admin",
    detail: `no active admin user, so no one can sign in to the console yet; run: ${FIRST_ADMIN_COMMAND} (in the project's directory: ${FIRST_ADMIN_NPM_COMMAND})`,
  };
}

interface RunningServerStatus {
  pid: number;
  address: { address: string; port: number } | string | null;
  pending_migrations: string[];
  database_time: string;
  /** null before the first migration (no users table yet). */
  has_active_admin: boolean | null;
}

interface DatabaseReport {
  findings: Finding[];
  /** The embedded server holding the data dir, when one runs. */
  server?: RunningServerStatus;
}

async function checkEmbedded(dataDir: string): Promise<DatabaseReport> {
  const holder = lockHolder(dataDir);
  if (holder !== null) {
    const before = Date.now();
    const status = (await sendOwnerCommand(ownerSocketPath(dataDir), "server.status", {})) as RunningServerStatus;
    const after = Date.now();
    const database = {
      ok: true,
      check: "database",
      detail: `embedded, data dir ${dataDir} held by the running server (pid ${holder})`,
    };
    const rest = schemaAndClock(status.pending_migrations, new Date(status.database_time), before, after);
    const admin = status.has_active_admin === null ? [] : [adminFinding(status.has_active_admin)];
    return { findings: [database, ...rest, ...admin], server: status };
  }
  if (!hasEmbeddedDatabase(dataDir)) {
    return {
      findings: [
        {
          ok: true,
          check: "database",
          detail: `embedded, data dir ${dataDir} has no database yet (created by the first cts serve)`,
        },
      ],
    };
  }
  const lock = acquireDataDirLock(dataDir);
  try {
    const database = await openDatabase({ dataDir: embeddedPath({ dataDir }) });
    try {
      const found = {
        ok: true,
        check: "database",
        detail: `embedded, data dir ${dataDir} (not in use; opened on the next start)`,
      };
      return { findings: [found, ...(await inspect(database))] };
    } finally {
      await database.close().catch(() => {});
      restrictToOwner(dataDir);
    }
  } finally {
    lock.release();
  }
}

async function checkDatabase(config: Where): Promise<DatabaseReport> {
  if (!config.databaseUrl) return checkEmbedded(config.dataDir);
  const database = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
  try {
    const findings = await inspect(database);
    return {
      findings: [{ ok: true, check: "database", detail: `reachable at ${redact(config.databaseUrl)}` }, ...findings],
    };
  } catch (err) {
    return {
      findings: [
        {
          ok: false,
          check: "database",
          detail: `cannot reach ${redact(config.databaseUrl)}: ${(err as Error).message}`,
        },
      ],
    };
  } finally {
    await database.close().catch(() => {});
  }
}

function listening(config: Config, server: RunningServerStatus | undefined): string {
  if (!server) return `environment ${config.env}, listening on ${config.host}:${config.port} when started`;
  const a = server.address;
  const where = a === null ? "no address" : typeof a === "string" ? a : `${a.address}:${a.port}`;
  return `environment ${config.env}; the running server (pid ${server.pid}) listens on ${where}`;
}

async function checkRedis(config: Where): Promise<Finding[]> {
  if (!config.redisUrl)
    return [{ ok: true, check: "redis", detail: "not configured (rate limits kept in the database or memory)" }];
  const store = new RedisStore(config.redisUrl);
  await new Promise((r) => setTimeout(r, 300));
  const ok = await store.ping();
  await store.close();
  return [
    ok
      ? { ok: true, check: "redis", detail: `reachable at ${redact(config.redisUrl)}` }
      : {
          ok: false,
          check: "redis",
          detail: `cannot reach ${redact(config.redisUrl)} (rate limits fall back to PostgreSQL)`,
        },
  ];
}

function checkTls(config: Config, now: Date): Finding[] {
  if (!config.tls) {
    return [
      {
        ok: true,
        check: "tls",
        detail:
          config.trustProxy === false ? "plain HTTP (fine for local use only)" : "terminated by the trusted proxy",
      },
    ];
  }
  try {
    const cert = new X509Certificate(config.tls.cert);
    const days = (Date.parse(cert.validTo) - now.getTime()) / 86_400_000;
    if (days < 0) return [{ ok: false, check: "tls", detail: `certificate expired on ${cert.validTo}` }];
    if (days < CERT_WARN_DAYS)
      return [{ ok: false, check: "tls", detail: `certificate expires in ${Math.floor(days)} days (${cert.validTo})` }];
    return [
      {
        ok: true,
        check: "tls",
        detail: `certificate for ${cert.subject.replace(/\n/g, ", ")} valid until ${cert.validTo}`,
      },
    ];
  } catch (err) {
    return [
      { ok: false, check: "tls", detail: `CTS_TLS_CERT is not a readable certificate: ${(err as Error).message}` },
    ];
  }
}

export async function diagnose(): Promise<Finding[]> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const where = connectionSettings();
    const problems = err.problems.map((p) => ({ ok: false, check: "config", detail: p }));
    return [...problems, ...(await checkDatabase(where)).findings, ...(await checkRedis(where))];
  }
  const database = await checkDatabase(config);
  return [
    { ok: true, check: "config", detail: listening(config, database.server) },
    ...database.findings,
    ...(await checkRedis(config)),
    ...checkTls(config, new Date()),
  ];
}

function label(f: Finding): string {
  if (!f.ok) return "FAIL";
  return f.warn ? "WARN" : "ok  ";
}

export function doctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("Check configuration, database, migrations, Redis, TLS and clock; say what is wrong in plain words")
    .option("--json", "print the findings as JSON")
    .action(async (o: { json?: boolean }) => {
      const findings = await diagnose();
      const text = o.json
        ? JSON.stringify(findings)
        : findings.map((f) => `${label(f)}  ${f.check.padEnd(10)}  ${f.detail}`).join("\n");
      process.stdout.write(`${text}\n`);
      if (findings.some((f) => !f.ok)) process.exitCode = 1;
    });
}
