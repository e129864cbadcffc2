import { loadConfig } from "../config.js";
import { DataDirLockedError, lockHolder } from "../db/data-dir-lock.js";
import { ownerSocketPath, sendOwnerCommand } from "../owner/socket.js";

/**
 * Runs an owner command wherever the database is: PostgreSQL directly; embedded through the running
 * server's socket when it holds the data dir, else by opening the data dir ourselves. The database
 * modules load only when needed, so the socket path stays quick.
 */
export async function runOwner(command: string, args: unknown, timeoutMs?: number): Promise<unknown> {
  const config = loadConfig();
  const viaSocket = () => sendOwnerCommand(ownerSocketPath(config.dataDir), command, args, timeoutMs);
  if (!config.databaseUrl && lockHolder(config.dataDir) !== null) return viaSocket();
  const [{ withOwnerDeployment }, { makeCtx, OWNER }, { runOwnerCommand }] = await Promise.all([
    import("../deployment.js"),
    import("../context.js"),
    import("../owner/commands.js"),
  ]);
  try {
    return await withOwnerDeployment(config, (d) =>
      runOwnerCommand(makeCtx(d.database.db, config.env, OWNER), command, args),
    );
  } catch (err) {
    if (err instanceof DataDirLockedError) return viaSocket();
    throw err;
  }
}
