// Shared by the benchmarks that run the real `cts serve` (cold-start, stall): a free port, and the
// deployment it serves — a data dir of its own, or with BENCH_DATABASE_URL a PostgreSQL database of its
// own (created here, dropped by `cleanup`).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** `env` for `cts serve` (CTS_DATA_DIR, or DATABASE_URL and CTS_SECRET_KEY), its `kind`, and `cleanup`. */
export async function benchDeployment(prefix, logLevel) {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { ...process.env, CTS_DATA_DIR: join(dir, "data"), CTS_LOG_LEVEL: logLevel, CTS_ENV: "demo" };
  delete env.DATABASE_URL;
  let dropDatabase = async () => {};
  if (databaseUrl) {
    const { default: pg } = await import("pg");
    const name = `cts_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.href;
    env.CTS_SECRET_KEY = randomBytes(32).toString("base64");
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  return {
    env,
    kind: databaseUrl ? "postgresql" : "embedded",
    cleanup: async () => {
      await dropDatabase();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
