import type { Kysely, Transaction } from "kysely";
import type { ZodType } from "zod";
import type { DB, Db } from "./db/schema.js";
import { ROLES, SCOPES, type Scope } from "./enums.js";
import { AppError } from "./errors.js";

export type { Scope };
export type Role = (typeof ROLES)[number];

/** A person signed in with a session (API.md §11): their role decides what they see and may do. */
export interface UserActor {
  type: "user";
  userId: string;
  name: string;
  role: Role;
  sessionId: string;
}

/** Who is acting: an API key (REST or MCP), a signed-in person, or the owner at the CLI, who holds the database. */
export type Actor =
  | { type: "api_key"; keyId: string; name: string; scope: Scope; mcpAccess: Scope }
  | UserActor
  | { type: "owner" };

export const OWNER: Actor = { type: "owner" };

export interface Ctx {
  db: Kysely<DB>;
  /** The deployment's environment (CTS_ENV): keys are bound to it. */
  env: string;
  actor: Actor;
  requestId: string | null;
  now: Date;
  /** Set for a request sent with an Idempotency-Key: its work and its stored reply commit together. */
  requestTransaction?: RequestTransaction;
  /**
   * An HTTP `If-Match` to honour: update services call it inside their transaction once the record is
   * locked, so the check and the write see the same version (412 `precondition_failed`).
   */
  precondition?: ((tx: Tx) => Promise<void>) | undefined;
  /** Set for an MCP tool call: a key then acts at most at its `mcp_access` level (API.md §9). */
  channel?: "mcp";
}

export type Tx = Transaction<DB>;

/**
 * The one transaction of a request whose reply is stored with its work: the first withTransaction
 * opens it, later ones join it, and the request commits it once the reply is serialized.
 */
export interface RequestTransaction {
  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export function makeCtx(
  db: Db,
  env: string,
  actor: Actor,
  requestId: string | null = null,
  now: Date = new Date(),
): Ctx {
  return { db, env, actor, requestId, now };
}

/** Scopes nest: admin ⊃ write ⊃ read. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}

const EVERY_ROLE: readonly Role[] = ROLES;
const ADMINS: readonly Role[] = ["admin"];

/**
 * The roles a scope stands for unless a route or service names others (access/ `MAY`): every role
 * reads (what each sees is narrowed by its visibility, API.md §11); only admins write.
 */
export function rolesOfScope(scope: Scope): readonly Role[] {
  return scope === "read" ? EVERY_ROLE : ADMINS;
}

/** 403 naming the role(s) needed: "This action needs the admin or finance role; you are rep". */
export function roleRefusal(roles: readonly Role[], role: Role): AppError {
  if (roles.length === 0) {
    return new AppError("forbidden", `This endpoint takes an API key; no role may call it (you are ${role})`);
  }
  const needed = roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(", ")} or ${roles.at(-1)}`;
  return new AppError("forbidden", `This action needs the ${needed} role; you are ${role}`);
}

/**
 * Checked again in every service function: MCP tools and the CLI reach services without routes. A key
 * needs `needed`; a person needs one of `roles` (by default those of the scope, `rolesOfScope`).
 */
export function requireScope(ctx: Ctx, needed: Scope, roles: readonly Role[] = rolesOfScope(needed)): void {
  const { actor } = ctx;
  if (actor.type === "owner") return;
  if (actor.type === "user") {
    if (!roles.includes(actor.role)) throw roleRefusal(roles, actor.role);
    return;
  }
  if (!scopeAllows(actor.scope, needed)) {
    throw new AppError("forbidden", `This action needs the ${needed} scope; this key has ${actor.scope}`);
  }
}

export function requireOwner(ctx: Ctx, what: string): void {
  if (ctx.actor.type !== "owner") {
    throw new AppError("forbidden", `${what} is reserved to the owner (the cts CLI); no API key can do it`);
  }
}

/** Runs `fn` in a transaction, or inside the caller's when `ctx.db` already is one (or the request's). */
export async function withTransaction<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx.db as Tx);
  if (ctx.requestTransaction) return ctx.requestTransaction.run(fn);
  return ctx.db.transaction().execute(fn);
}

export function actorLabel(actor: Actor): { id: string | null; name: string } {
  switch (actor.type) {
    case "owner":
      return { id: null, name: "owner-cli" };
    case "api_key":
      return { id: actor.keyId, name: actor.name };
    case "user":
      return { id: actor.userId, name: actor.name };
  }
}

// A request carries its Ctx, and a route's config names the scope it needs: declared here, beside Ctx,
// because http/ sits on a floor below this file.
declare module "fastify" {
  interface FastifyContextConfig {
    /** The scope a route needs; checked by the pipeline before validation (API.md §2 order). */
    scope?: Scope;
    /** The roles that may call it (people, API.md §11); none → people are refused (default deny). */
    roles?: readonly Role[];
    /**
     * For a route under `/<collection>/:id`: the collection's GET by id, run as the person before a role
     * refusal, so a record they do not see is 404 rather than 403 (its existence is never revealed).
     */
    visibleRecord?: (ctx: Ctx, params: Record<string, string>) => Promise<unknown>;
    /** Public routes (health, OpenAPI, docs) skip authentication and the rate limit. */
    public?: boolean;
    /** PATCH/PUT: the record's GET representation (its reader and schema), checked against If-Match. */
    ifMatch?: {
      /** `parts`: the parsed query and body, for a record a path alone does not name (a rate set's base). */
      read: (ctx: Ctx, params: Record<string, string>, parts: { query: unknown; body: unknown }) => Promise<unknown>;
      schema: ZodType;
    };
    /**
     * A write whose 200/201 body is a record (API.md §20 (e)): that record's GET by id (`/api/v1/disputes/:id`)
     * and the GET's schema, for the response's `ETag` (what the GET then returns) and a 201's `Location`.
     */
    represents?: { path: string; schema: ZodType; locate?: (record: Record<string, unknown>) => string };
  }
  interface FastifyRequest {
    /** Set by the pipeline once the key is known; routes pass it to one service call. */
    ctx: Ctx;
    /** The service's origin (CTS_PUBLIC_URL, else the listen address; never the request's Host): links, Origin checks. */
    publicOrigin: string;
  }
}
