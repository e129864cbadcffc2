import { X509Certificate } from "node:crypto";
import type { Command } from "commander";
import { sql } from "kysely";
import { type Config, ConfigError, connectionSettings, loadConfig } from "../config.js";
import { openDatabase } from "../db/connect.js";
import { lockHolder } from "../db/data-dir-lock.js";
import { pendingMigrations } from "../db/migrate.js";
import { RedisStore } from "../rate-limit/redis-store.js";

interface Finding {
  ok: boolean;
  check: string;
  detail: string;
}

const MAX_SKEW_MS = 2000;
const CERT_WARN_DAYS = 14;

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}

type Where = Pick<Config, "databaseUrl" | "redisUrl" | "dataDir">;

async function checkDatabase(config: Where): Promise<Finding[]> {
  if (!config.databaseUrl) {
    const holder = lockHolder(config.dataDir);
    return [
      {
        ok: true,
        check: "database",
        detail: holder
          ? `embedded, data dir ${config.dataDir} held by the running server (pid ${holder}); ask it: GET /readyz`
          : `embedded, data dir ${config.dataDir} (not in use; opened on the next start)`,
      },
    ];
  }
  const database = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
  try {
    const before = Date.now();
    const r = await sql<{ now: Date }>`SELECT now() AS now`.execute(database.db);
    const skew = Math.abs(r.rows[0]!.now.getTime() - (before + Date.now()) / 2);
    const pending = await pendingMigrations(database.db);
    return [
      { ok: true, check: "database", detail: `reachable at ${redact(config.databaseUrl)}` },
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
  } catch (err) {
    return [
      { ok: false, check: "database", detail: `cannot reach ${redact(config.databaseUrl)}: ${(err as Error).message}` },
    ];
  } finally {
    await database.close().catch(() => {});
  }
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
    return [...problems, ...(await checkDatabase(where)), ...(await checkRedis(where))];
  }
  const findings: Finding[] = [
    { ok: true, check: "config", detail: `environment ${config.env}, listening on ${config.host}:${config.port}` },
  ];
  findings.push(...(await checkDatabase(config)), ...(await checkRedis(config)), ...checkTls(config, new Date()));
  return findings;
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
        : findings.map((f) => `${f.ok ? "ok  " : "FAIL"}  ${f.check.padEnd(10)}  ${f.detail}`).join("\n");
      process.stdout.write(`${text}\n`);
      if (findings.some((f) => !f.ok)) process.exitCode = 1;
    });
}
