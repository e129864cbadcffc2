import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/connect.js";
import { ctsEnv, type RunningServer, runCts, startServer } from "./spawn.js";

const POSTGRES = !!process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), "cts-embedded-"));
const env = ctsEnv({ CTS_DATA_DIR: dataDir, CTS_ENV: "demo" });
const running: RunningServer[] = [];

afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(port: number, path: string, key?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return { status: res.status, body: (await res.json()) as any };
}

// The embedded (PGlite) lifecycle; on a PostgreSQL run the same code is covered by the in-process suites.
describe.skipIf(POSTGRES)("embedded server lifecycle", () => {
  let bootstrapKey = "";
  let readKey = "";

  it("first start prints the bootstrap key once on stderr, never on stdout", async () => {
    const server = await startServer(env);
    running.push(server);
    const match = /cts_demo_[0-9A-Za-z]{43}/.exec(server.stderr());
    expect(match).not.toBeNull();
    bootstrapKey = match![0];
    expect(server.stdout()).not.toContain(bootstrapKey);
    expect((await get(server.port, "/healthz")).body).toEqual({ status: "ok" });
    const keys = await get(server.port, "/api/v1/api-keys", bootstrapKey);
    expect(keys.status).toBe(200);
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(["bootstrap"]);
    expect(statSync(join(dataDir, "cts.sock")).mode & 0o777).toBe(0o600);
  });

  it("the owner CLI works while the server runs, through its socket", async () => {
    const server = running[0]!;
    const created = runCts(["keys", "create", "--scope", "read", "--name", "ci reader", "--json"], env);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    const line = JSON.parse(created.stdout.trim());
    expect(Object.keys(line).sort()).toEqual(["environment", "id", "key", "name", "scope"]);
    expect(line).toMatchObject({ scope: "read", environment: "demo", name: "ci reader" });
    readKey = line.key;
    expect((await get(server.port, "/api/v1/users", readKey)).status).toBe(200);
    const listed = JSON.parse(runCts(["keys", "list", "--json"], env).stdout);
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(readKey);
  });

  it("a second process cannot open the same data dir", async () => {
    const second = runCts(["serve"], { ...env, CTS_PORT: "0" });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`in use by process ${running[0]!.child.pid}`);
  });

  it("after SIGKILL the next start takes the lock over, with data intact and no new bootstrap key", async () => {
    const killed = running[0]!;
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(existsSync(join(dataDir, "cts.lock"))).toBe(true);
    const server = await startServer(env);
    running.push(server);
    expect(server.stderr()).not.toMatch(/cts_demo_[0-9A-Za-z]{43}/);
    expect((await get(server.port, "/api/v1/users", readKey)).status).toBe(200);
    expect((await get(server.port, "/api/v1/api-keys", bootstrapKey)).body.meta.total).toBe(2);
  });

  it("revocation from the CLI bites on the next request", async () => {
    const server = running.at(-1)!;
    const list = JSON.parse(runCts(["keys", "list", "--json"], env).stdout) as { id: string; name: string }[];
    const reader = list.find((k) => k.name === "ci reader")!;
    expect(runCts(["keys", "revoke", reader.id], env).status).toBe(0);
    const res = await get(server.port, "/api/v1/users", readKey);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("SIGTERM stops gracefully, writes every buffered request-log row and releases the lock; the CLI then opens the data dir itself", async () => {
    const server = running.at(-1)!;
    // Answered just before the signal: their rows are still in the writer's buffer (written every 200 ms).
    const answered = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${server.port}/api/v1/users`, { headers: { authorization: `Bearer ${bootstrapKey}` } }),
      ),
    );
    expect(answered.map((r) => r.status)).toEqual(answered.map(() => 200));
    const ids = answered.map((r) => r.headers.get("request-id")!);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dataDir, "cts.lock"))).toBe(false);
    const database = await openDatabase({ dataDir: join(dataDir, "pgdata") });
    const rows = await database.db.selectFrom("request_logs").select("id").where("id", "in", ids).execute();
    await database.close();
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    const mcp = runCts(
      ["keys", "mcp-access", JSON.parse(runCts(["keys", "list", "--json"], env).stdout)[0].id, "write", "--json"],
      env,
    );
    expect(mcp.status).toBe(0);
    expect(JSON.parse(mcp.stdout).mcp_access).toBe("write");
  });

  it("a bad configuration stops start-up with one line per problem", () => {
    const bad = runCts(["serve"], { ...env, CTS_PORT: "99999", CTS_LOG_LEVEL: "loud" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("CTS_PORT must be a port number");
    expect(bad.stderr).toContain("CTS_LOG_LEVEL must be one of");
  });
});
