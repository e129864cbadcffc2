import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Config, loadConfig } from "../config.js";
import { DataDirLockedError, lockHolder } from "../db/data-dir-lock.js";
import { serviceOrigin } from "../http/origin.js";
import { ownerSocketPath, sendOwnerCommand } from "../owner/socket.js";

/** The embedded cluster's marker file (deployment.ts `embeddedPath`; read here without loading PGlite). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, "pgdata", "PG_VERSION"));
}

/** Owner commands never create a database: a mistyped CTS_DATA_DIR must not look like an empty deployment. */
function requireDatabase(config: Config): void {
  if (config.databaseUrl || hasEmbeddedDatabase(config.dataDir)) return;
  throw new Error(
    `no database in ${config.dataDir} (CTS_DATA_DIR); check the path, or run \`cts serve\` once to create one there`,
  );
}

/**
 * Runs an owner command wherever the database is: PostgreSQL directly; embedded through the running
 * server's socket when it holds the data dir, else by opening the data dir ourselves. The database
 * modules load only when needed, so the socket path stays quick.
 */
export async function runOwner(command: string, args: unknown, timeoutMs?: number): Promise<unknown> {
  const config = loadConfig();
  const viaSocket = () => sendOwnerCommand(ownerSocketPath(config.dataDir), command, args, timeoutMs);
  if (!config.databaseUrl && lockHolder(config.dataDir) !== null) return viaSocket();
  requireDatabase(config);
  const [{ withOwnerDeployment }, { makeCtx, OWNER }, { runOwnerCommand }] = await Promise.all([
    import("../deployment.js"),
    import("../context.js"),
    import("../owner/commands.js"),
  ]);
  const settings = { mail: await mailSettings(config) };
  try {
    return await withOwnerDeployment(config, (d) =>
      runOwnerCommand(makeCtx(d.database.db, config.env, OWNER), command, args, undefined, settings),
    );
  } catch (err) {
    if (err instanceof DataDirLockedError) return viaSocket();
    throw err;
  }
}

/** With CTS_SMTP_URL: what queueing an email needs (the links' origin, the key that seals its token). */
async function mailSettings(config: Config) {
  if (!config.mail) return undefined;
  const { resolveWebhookSettings } = await import("../webhooks/index.js");
  return { publicUrl: config.mail.publicUrl, secretKey: (await resolveWebhookSettings(config)).secretKey };
}

/**
 * The origin the service writes links with (API.md §20 (d)): the running embedded server's own, asked
 * over its owner socket (it knows the port it listens on); else computed from the same configuration.
 */
export async function linkOrigin(): Promise<string> {
  const config = loadConfig();
  if (!config.databaseUrl && lockHolder(config.dataDir) !== null) {
    const answer = (await sendOwnerCommand(ownerSocketPath(config.dataDir), "server.origin", {})) as { origin: string };
    return answer.origin;
  }
  const { publicUrl, host, port } = config;
  return serviceOrigin({ publicUrl, tls: config.tls !== undefined, host, port });
}
