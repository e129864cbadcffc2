import { z } from "zod";
import { type ApiKey, createKey, listKeys, revokeKey, ScopeEnum, setMcpAccess } from "../api-keys/index.js";
import { inviteByEmail } from "../auth/index.js";
import type { Ctx } from "../context.js";
import { pendingMigrations } from "../db/migrate.js";
import { seedDemo } from "../demo/index.js";
import { ROLES } from "../enums.js";
import { AppError } from "../errors.js";
import { FILE_TOO_LARGE, type ImportQuery, importDeals, importUsers, MAX_FILE_BYTES } from "../imports/index.js";
import type { NotificationSettings } from "../notifications/index.js";
import { hasActiveAdmin } from "../users/index.js";
import { readDatabaseTime } from "./repository.js";

/** What only the running server knows about itself (`cts doctor` asks it). */
export interface OwnerServerInfo {
  pid: number;
  address: { address: string; port: number } | string | null;
  /** The origin its links are written with (API.md §20 (d)). */
  origin: string;
}

/** What the process running a command knows of its configuration: the server's, or the CLI's own. */
export interface OwnerSettings {
  /** Email is configured (CTS_SMTP_URL): `users.invite` queues the invitation email, as the route does. */
  mail?: NotificationSettings | undefined;
}

/** `server.status`: the running server's own view, so `cts doctor` need not open the data dir it holds. */
async function serverStatus(ctx: Ctx, server: OwnerServerInfo | undefined) {
  const now = await readDatabaseTime(ctx.db);
  const pending = await pendingMigrations(ctx.db);
  return {
    pid: server?.pid ?? process.pid,
    address: server?.address ?? null,
    pending_migrations: pending,
    database_time: now.toISOString(),
    // What `cts doctor` warns about on a first run (null: no users table before the first migration).
    has_active_admin: pending.length > 0 ? null : await hasActiveAdmin(ctx.db),
  };
}

/** `cts import deals|users FILE`: the file as text (decoded by the CLI as the HTTP route decodes it), and the route's query. */
const ImportArgs = z.strictObject({
  text: z.string(),
  dry_run: z.boolean().default(false),
  map: z.string().min(1).max(10_000).optional(),
});
type ImportArgs = z.infer<typeof ImportArgs>;

/** The route's 32 MiB, for a file that came over the owner socket instead. */
function fileText(a: ImportArgs): string {
  if (Buffer.byteLength(a.text, "utf8") > MAX_FILE_BYTES) throw new AppError("payload_too_large", FILE_TOO_LARGE);
  return a.text;
}

const importQuery = (a: ImportArgs): ImportQuery => ({
  dry_run: a.dry_run,
  ...(a.map !== undefined && { map: a.map }),
});

/**
 * What the owner (whoever holds the database) can do from the CLI. The same table serves the CLI
 * acting on the database directly and a running embedded server answering on its Unix socket.
 */
export const OWNER_COMMANDS = {
  "keys.create": {
    args: z.strictObject({
      scope: ScopeEnum,
      name: z.string().trim().min(1).max(100),
      expires_at: z.iso
        .datetime({ offset: true, error: "must be an RFC 3339 timestamp such as 2030-12-31T23:59:59Z" })
        .optional(),
    }),
    run: (ctx: Ctx, a: { scope: "read" | "write" | "admin"; name: string; expires_at?: string | undefined }) =>
      createKey(ctx, { scope: a.scope, name: a.name, expires_at: a.expires_at ?? null }),
  },
  "keys.list": {
    args: z.strictObject({}),
    run: async (ctx: Ctx) => {
      const all: ApiKey[] = [];
      for (let page = 1; ; page++) {
        const batch = await listKeys(ctx, { page, per_page: 100 });
        all.push(...batch.data);
        if (all.length >= batch.meta.total || batch.data.length === 0) return all;
      }
    },
  },
  "keys.revoke": {
    args: z.strictObject({ id: z.string().min(1) }),
    run: (ctx: Ctx, a: { id: string }) => revokeKey(ctx, a.id),
  },
  "keys.mcp-access": {
    args: z.strictObject({ id: z.string().min(1), level: ScopeEnum }),
    run: (ctx: Ctx, a: { id: string; level: "read" | "write" | "admin" }) => setMcpAccess(ctx, a.id, a.level),
  },
  "users.invite": {
    args: z.strictObject({
      email: z.email({ error: "must be a valid email address" }).max(320),
      name: z.string().trim().min(1).max(200).optional(),
      role: z.enum(ROLES).optional(),
      origin: z.url(),
    }),
    run: (
      ctx: Ctx,
      a: { email: string; name?: string; role?: (typeof ROLES)[number]; origin: string },
      _server?: OwnerServerInfo,
      settings?: OwnerSettings,
    ) => inviteByEmail(ctx, a, settings?.mail),
  },
  "imports.deals": {
    args: ImportArgs,
    run: (ctx: Ctx, a: ImportArgs) => importDeals(ctx, fileText(a), importQuery(a)),
  },
  "imports.users": {
    args: ImportArgs,
    run: (ctx: Ctx, a: ImportArgs) => importUsers(ctx, fileText(a), importQuery(a)),
  },
  "seed.demo": {
    args: z.strictObject({}),
    run: (ctx: Ctx) => seedDemo(ctx),
  },
  "server.origin": {
    args: z.strictObject({}),
    run: async (_ctx: Ctx, _a: unknown, server?: OwnerServerInfo) => {
      if (!server) throw new Error("server.origin is answered by a running server only");
      return { origin: server.origin };
    },
  },
  "server.status": {
    args: z.strictObject({}),
    run: (ctx: Ctx, _a: unknown, server?: OwnerServerInfo) => serverStatus(ctx, server),
  },
} as const;

export type OwnerCommandName = keyof typeof OWNER_COMMANDS;

export function isOwnerCommand(name: string): name is OwnerCommandName {
  return Object.hasOwn(OWNER_COMMANDS, name);
}

/**
 * Validates the arguments and runs the command as the owner (`server`: when a running server answers;
 * `settings`: the configuration of whichever process runs it).
 */
export async function runOwnerCommand(
  ctx: Ctx,
  name: string,
  args: unknown,
  server?: OwnerServerInfo,
  settings?: OwnerSettings,
): Promise<unknown> {
  if (!isOwnerCommand(name)) throw new Error(`Unknown owner command ${name}`);
  const command = OWNER_COMMANDS[name];
  const parsed = command.args.safeParse(args ?? {});
  if (!parsed.success) throw invalidArguments(parsed.error);
  type Run = (ctx: Ctx, a: unknown, s?: OwnerServerInfo, o?: OwnerSettings) => Promise<unknown>;
  return (command.run as Run)(ctx, parsed.data, server, settings);
}

/** A sentence naming each bad argument ("email must be a valid email address"), as the API's details do. */
function invalidArguments(error: z.ZodError): AppError {
  const details = error.issues.map((issue) => ({ param: issue.path.join(".") || "arguments", message: issue.message }));
  return new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
}
